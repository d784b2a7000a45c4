import { Bot, InlineKeyboard } from 'grammy';
import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { publicBaseUrl } from '../config.ts';
import type { Db } from '../db/index.ts';
import { botLanguage, START_TEXTS } from './texts.ts';

/** The updates the bot asks Telegram for. */
export const ALLOWED_UPDATES = [
  'message',
  'my_chat_member',
  'business_connection',
  'business_message',
] as const;

/** A /start or startapp parameter: case_<id>, battle_<id> or verify_<betId>, mapped to the app's screen. */
export function startParamPath(param: string | undefined | null): string {
  const match = /^(case|battle|verify)_([A-Za-z0-9_-]{1,64})$/.exec(param ?? '');
  if (!match) return '/';
  return `/${match[1]}/${match[2]}`;
}

export interface BotHooks {
  /** a business update of the trusted connection said a gift may have arrived */
  onGiftHint(): void;
}

/**
 * The grammY bot: /start (greeting in the player's language, an "Open" button to the Mini App or the
 * deep-linked screen), who may be written to (/start allows it, blocking the bot stops it), and the
 * operator's business connection (only the configured one is trusted; every other is ignored and logged).
 * Each update is handled once: its update_id is recorded first (bot_updates), so a repeated delivery, by
 * Telegram or to another instance, does nothing.
 */
export function createBot(
  config: Config,
  token: string,
  db: Db,
  hooks: BotHooks,
  log?: FastifyBaseLogger,
): Bot {
  const bot = new Bot(token, {
    client: { apiRoot: config.telegramApiRoot, timeoutSeconds: config.telegramTimeoutSeconds },
  });
  bot.api.config.use(apiThrottler());
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  const appUrl = publicBaseUrl(config);
  const https = appUrl.startsWith('https://');
  const trusted = config.telegramBusinessConnectionId;

  bot.use(async (ctx, next) => {
    const first = await db
      .insertInto('bot_updates')
      .values({ update_id: ctx.update.update_id })
      .onConflict((oc) => oc.column('update_id').doNothing())
      .returning('update_id')
      .executeTakeFirst();
    if (!first) {
      log?.debug({ updateId: ctx.update.update_id }, 'telegram update seen before: ignored');
      return;
    }
    await next();
  });

  bot.command('start', async (ctx) => {
    const from = ctx.from;
    if (!from || from.is_bot) return;
    // whoever starts the bot allows it to write to them (and unblocked it, if they had blocked it)
    await db
      .insertInto('users')
      .values({
        id: BigInt(from.id),
        first_name: from.first_name.slice(0, 128),
        last_name: from.last_name?.slice(0, 128) ?? null,
        username: from.username?.slice(0, 64) ?? null,
        language_code: from.language_code?.slice(0, 16) ?? null,
        bot_can_write: true,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ bot_can_write: true, bot_blocked_at: null, updated_at: sql<Date>`now()` }),
      )
      .execute();
    const texts = START_TEXTS[botLanguage(from.language_code)];
    const url = `${appUrl}${startParamPath(ctx.match)}`;
    const keyboard = https
      ? new InlineKeyboard().webApp(texts.open, url)
      : new InlineKeyboard().url(texts.open, url);
    await ctx.reply(texts.greeting, { reply_markup: keyboard });
  });

  bot.on('my_chat_member', async (ctx) => {
    const status = ctx.myChatMember.new_chat_member.status;
    if (ctx.chat.type !== 'private') return;
    await db
      .updateTable('users')
      .set(
        status === 'kicked'
          ? { bot_blocked_at: sql<Date>`now()` }
          : { bot_blocked_at: null, bot_can_write: true },
      )
      .where('id', '=', BigInt(ctx.chat.id))
      .execute();
  });

  bot.on('business_connection', (ctx) => {
    const connection = ctx.update.business_connection!;
    if (connection.id !== trusted) {
      log?.warn(
        { connection: connection.id, account: connection.user.id },
        'business connection that is not the configured one: ignored',
      );
      return;
    }
    log?.info({ enabled: connection.is_enabled, rights: connection.rights }, 'business connection updated');
    hooks.onGiftHint();
  });

  bot.on('business_message', (ctx) => {
    const message = ctx.update.business_message!;
    if (message.business_connection_id !== trusted) {
      log?.warn(
        { connection: message.business_connection_id },
        'business update from another connection: ignored',
      );
      return;
    }
    if (message.gift || message.unique_gift) hooks.onGiftHint();
  });

  bot.catch((err) =>
    log?.error({ err: err.error, updateId: err.ctx.update.update_id }, 'telegram update failed'),
  );
  return bot;
}
