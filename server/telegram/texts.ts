import type { WithdrawalFailure } from '../../contract/inventory.ts';

/**
 * What the bot says, in Russian and English. The language comes from the player's Telegram
 * language_code: Russian for ru and the languages whose speakers mostly read Russian, English otherwise.
 */

export type BotLanguage = 'ru' | 'en';

const RUSSIAN_READERS = new Set(['ru', 'be', 'uk', 'kk', 'ky', 'uz', 'tg', 'hy', 'az']);

export function botLanguage(languageCode: string | null | undefined): BotLanguage {
  const base = (languageCode ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return RUSSIAN_READERS.has(base) ? 'ru' : 'en';
}

const FAILURES: Record<BotLanguage, Record<WithdrawalFailure, string>> = {
  en: {
    BOT_NOT_STARTED:
      'Telegram would not let the bot reach you: open the bot and press Start, then try again.',
    BOT_BLOCKED: 'you have blocked the bot: unblock it and try again.',
    GIFT_SOLD_OUT: 'this gift is sold out in Telegram.',
    NOT_ENOUGH_STARS: 'the shop is out of Stars for gifts right now; try again later.',
    OUT_OF_STOCK: 'no gift of this collection is in stock right now; try again later.',
    NOT_WITHDRAWABLE: 'this item cannot be sent as a Telegram gift; you can sell it instead.',
    REFUSED: 'Telegram refused to deliver the gift.',
  },
  ru: {
    BOT_NOT_STARTED: 'Telegram не даёт боту написать вам: откройте бота, нажмите «Старт» и попробуйте снова.',
    BOT_BLOCKED: 'вы заблокировали бота: разблокируйте его и попробуйте снова.',
    GIFT_SOLD_OUT: 'этот подарок в Telegram распродан.',
    NOT_ENOUGH_STARS: 'у магазина сейчас не хватает звёзд на подарки; попробуйте позже.',
    OUT_OF_STOCK: 'подарков этой коллекции сейчас нет в наличии; попробуйте позже.',
    NOT_WITHDRAWABLE: 'этот предмет нельзя отправить подарком в Telegram; его можно продать.',
    REFUSED: 'Telegram отказался доставить подарок.',
  },
};

/** The notifications the outbox sends, with the parameters each carries (all text). */
export interface Notifications {
  deposit_credited: { amount: string };
  gift_deposit_credited: { item: string; itemRu: string };
  withdrawal_delivered: { item: string; itemRu: string };
  withdrawal_failed: { item: string; itemRu: string; reason: WithdrawalFailure };
  battle_won: { total: string; battleId: string };
  race_prize: { amount: string; place: string };
}
export type NotificationKind = keyof Notifications;

type Texts = { [K in NotificationKind]: (p: Notifications[K]) => string };

const NOTIFICATIONS: Record<BotLanguage, Texts> = {
  en: {
    deposit_credited: (p) => `Your deposit of ${p.amount} TON has been credited.`,
    gift_deposit_credited: (p) => `Your gift has arrived: ${p.item} is in your inventory.`,
    withdrawal_delivered: (p) => `${p.item} has been sent to your Telegram profile.`,
    withdrawal_failed: (p) =>
      `We could not send ${p.item}: ${FAILURES.en[p.reason]} The item is back in your inventory.`,
    battle_won: (p) => `You won a battle! Items worth ${p.total} TON are in your inventory.`,
    race_prize: (p) => `You took place ${p.place} in the race: ${p.amount} TON has been credited.`,
  },
  ru: {
    deposit_credited: (p) => `Депозит ${p.amount} TON зачислен.`,
    gift_deposit_credited: (p) => `Подарок получен: «${p.itemRu}» теперь в вашем инвентаре.`,
    withdrawal_delivered: (p) => `Подарок «${p.itemRu}» отправлен в ваш профиль Telegram.`,
    withdrawal_failed: (p) =>
      `Не удалось отправить подарок «${p.itemRu}»: ${FAILURES.ru[p.reason]} Предмет вернулся в инвентарь.`,
    battle_won: (p) => `Вы выиграли батл! Предметы на ${p.total} TON уже в инвентаре.`,
    race_prize: (p) => `Вы заняли ${p.place}-е место в гонке: начислено ${p.amount} TON.`,
  },
};

export function notificationText<K extends NotificationKind>(
  language: BotLanguage,
  kind: K,
  params: Notifications[K],
): string {
  return (NOTIFICATIONS[language][kind] as (p: Notifications[K]) => string)(params);
}

export const START_TEXTS: Record<BotLanguage, { greeting: string; open: string; menu: string }> = {
  en: {
    greeting:
      'Welcome to Giftcases! Open cases, win Telegram gifts and withdraw them straight to your profile.',
    open: 'Open',
    menu: 'Play',
  },
  ru: {
    greeting:
      'Добро пожаловать в Giftcases! Открывайте кейсы, выигрывайте подарки Telegram и выводите их прямо в профиль.',
    open: 'Открыть',
    menu: 'Играть',
  },
};
