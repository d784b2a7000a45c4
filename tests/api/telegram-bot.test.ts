import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  InventoryResponse,
  WithdrawResponse,
  WithdrawalsResponse,
  Withdrawal,
} from '../../contract/inventory.ts';
import type { AdminTelegramResponse } from '../../contract/telegram.ts';
import { creditDeposit } from '../../server/payments/credit.ts';
import {
  BOT_TOKEN,
  createTestDatabase,
  grantItems,
  startServer,
  type TestDatabase,
  type TestServer,
} from './harness.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket } from '../stand-ins/ws-client.ts';
import { BUSINESS_CONNECTION_ID, startTelegram, type TelegramStandIn } from '../stand-ins/telegram.ts';

/**
 * The bot against the Bot API stand-in (grammY's apiRoot pointed at it): withdrawals delivered as gifts
 * exactly once, reconciled after a crash, through 429 storms and permanent refusals; gift deposits; the
 * webhook's secret; /start deep links; notifications only to who allowed them, in their language.
 */

const ADMIN_KEY = 'operator-key-for-telegram-tests-0123';
const PUBLIC_URL = 'https://giftcases.example';
const TEDDY_GIFT_ID = '5170233102089322756';
const COLLECTION = 'Plush Pepe';
/** the webhook secret the server derives from its bot token (README, "The Telegram bot") */
const WEBHOOK_SECRET = createHash('sha256').update(`telegram-webhook:${BOT_TOKEN}`).digest('hex');

let telegram: TelegramStandIn;
let db: TestDatabase;
let server: TestServer;
let nextUserId = 710_000;

function env(): NodeJS.ProcessEnv {
  return {
    ADMIN_KEY,
    PUBLIC_URL,
    TELEGRAM_BOT: 'on',
    TELEGRAM_API_ROOT: telegram.apiRoot,
    TELEGRAM_TIMEOUT_SECONDS: '2',
    TELEGRAM_WORK_MS: '100',
    TELEGRAM_GIFT_SCAN_MS: '60000',
    TELEGRAM_BUSINESS_CONNECTION_ID: BUSINESS_CONNECTION_ID,
    TELEGRAM_GIFT_ACCOUNT: '@giftcases_desk',
  };
}

async function start(): Promise<TestServer> {
  return startServer({ database: db.database, env: env() });
}

beforeAll(async () => {
  telegram = await startTelegram(BOT_TOKEN);
  db = await createTestDatabase();
  server = await start();
  // the operator maps two items: a regular gift and a unique-gift collection
  for (const [item, body] of [
    ['teddy_bear', { giftId: TEDDY_GIFT_ID }],
    ['nft_1', { collection: COLLECTION }],
  ] as const) {
    const res = await server.call('PUT', `/admin/items/${item}/telegram-gift`, {
      body,
      headers: { 'x-admin-key': ADMIN_KEY },
    });
    expect(res.status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await server.close();
  await db.drop();
  await telegram.close();
});

afterEach(() => {
  telegram.calls.length = 0;
});

interface Player {
  id: number;
  token: string;
}

async function player(
  options: { language?: string; allows?: boolean; items?: Record<string, number> } = {},
): Promise<Player> {
  const id = ++nextUserId;
  const token = await server.login({
    id,
    language_code: options.language ?? 'en',
    allows_write_to_pm: options.allows ?? true,
  });
  if (options.items) await grantItems(server, id, options.items);
  return { id, token };
}

async function withdraw(p: Player, itemId: string) {
  return server.call<WithdrawResponse>('POST', '/inventory/withdraw', {
    token: p.token,
    body: { itemId, quantity: 1 },
  });
}

async function withdrawal(p: Player, id: string): Promise<Withdrawal> {
  const res = await server.call<WithdrawalsResponse>('GET', '/inventory/withdrawals', { token: p.token });
  return res.body.withdrawals.find((w) => w.id === id)!;
}

async function settled(p: Player, id: string, timeoutMs = 15_000): Promise<Withdrawal> {
  return waitFor(
    async () => {
      const w = await withdrawal(p, id);
      return w.status === 'completed' || w.status === 'failed' ? w : undefined;
    },
    `withdrawal ${id} to settle`,
    timeoutMs,
  );
}

async function quantity(p: Player, itemId: string): Promise<number> {
  const res = await server.call<InventoryResponse>('GET', '/inventory', { token: p.token });
  return res.body.inventory.find((e) => e.item.id === itemId)?.quantity ?? 0;
}

const messagesTo = (id: number) => telegram.callsOf('sendMessage').filter((c) => c.params.chat_id === id);

async function webhook(update: Record<string, unknown>, secret: string | null = WEBHOOK_SECRET) {
  return server.call('POST', '/telegram/webhook', {
    body: update,
    headers: secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret },
  });
}

let updateId = 1000;
function startUpdate(from: { id: number; language_code?: string }, text: string) {
  const id = ++updateId;
  return {
    update_id: id,
    message: {
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: 'private', first_name: 'Player' },
      from: { is_bot: false, first_name: 'Player', ...from },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: 6 }],
    },
  };
}

describe('withdrawals delivered as Telegram gifts', () => {
  it('sends a regular gift once, marks it delivered and tells the player', async () => {
    const p = await player({ items: { teddy_bear: 1 } });
    const res = await withdraw(p, 'teddy_bear');
    expect(res.status).toBe(200);
    const w = await settled(p, res.body.withdrawal.id);
    expect(w.status).toBe('completed');
    expect(w.sendingAt).not.toBeNull();
    expect(w.resolvedAt).not.toBeNull();
    const sends = telegram.callsOf('sendGift');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.params).toMatchObject({ user_id: p.id, gift_id: TEDDY_GIFT_ID });
    await waitFor(() => messagesTo(p.id).length === 1, 'the delivered message');
    expect(messagesTo(p.id)[0]!.params.text).toBe('Teddy Bear has been sent to your Telegram profile.');
    expect(await quantity(p, 'teddy_bear')).toBe(0);
  });

  it("tells the player's open app each change of the withdrawal over the app socket", async () => {
    const p = await player({ items: { teddy_bear: 1 } });
    const socket = await openSocket(`${server.baseUrl.replace('http', 'ws')}/api/ws`);
    try {
      socket.send({ type: 'auth', token: p.token });
      await socket.next('auth_ok');
      const res = await withdraw(p, 'teddy_bear');
      expect(res.status).toBe(200);
      const id = res.body.withdrawal.id;
      await settled(p, id);
      const told = () =>
        socket.messages.filter((m) => m.type === 'withdrawal').map((m) => [m.id, m.status] as const);
      await waitFor(() => told().some(([, status]) => status === 'completed'), 'the completed push');
      // requested, then the bot began sending it, then it landed (a unit delivered on the way), in order
      const statuses = told().map(([withdrawal, status]) => {
        expect(withdrawal).toBe(id);
        return status;
      });
      expect(statuses[0]).toBe('pending');
      expect(statuses.at(-1)).toBe('completed');
      expect(statuses).toContain('sending');
      expect(statuses.indexOf('sending')).toBeGreaterThan(0);
    } finally {
      socket.close();
    }
  });

  it('transfers a unique gift of the mapped collection from the business account', async () => {
    const stock = telegram.receiveGift(COLLECTION, null, Math.floor(Date.now() / 1000) - 86_400);
    const p = await player({ items: { nft_1: 1 } });
    const res = await withdraw(p, 'nft_1');
    const w = await settled(p, res.body.withdrawal.id);
    expect(w.status).toBe('completed');
    const transfers = telegram.callsOf('transferGift');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.params).toMatchObject({
      business_connection_id: BUSINESS_CONNECTION_ID,
      owned_gift_id: stock.owned_gift_id,
      new_owner_chat_id: p.id,
    });
    expect(telegram.owned.find((g) => g.owned_gift_id === stock.owned_gift_id)).toBeUndefined();
  });

  it('refuses items without a Telegram gift, and the inventory says so', async () => {
    const p = await player({ items: { ton_balance: 1, teddy_bear: 1 } });
    const res = await withdraw(p, 'ton_balance');
    expect(res.status).toBe(409);
    expect((res.body as unknown as { code: string }).code).toBe('ITEM_NOT_WITHDRAWABLE');
    expect(await quantity(p, 'ton_balance')).toBe(1);
    const inv = await server.call<InventoryResponse>('GET', '/inventory', { token: p.token });
    const byId = Object.fromEntries(inv.body.inventory.map((e) => [e.item.id, e.withdrawable]));
    expect(byId).toEqual({ ton_balance: false, teddy_bear: true });
  });

  it('after a crash between the call and its record, reconciles instead of sending again', async () => {
    // a bot with a long history: its recent transactions are behind 25,000 older ones (the list is oldest first)
    telegram.pastTransactions(25_000, Math.floor(Date.now() / 1000) - 30 * 86_400);
    const listingsBefore = telegram.callsOf('getStarTransactions').length;
    // a regular gift: Telegram sends it, the answer never comes, the server stops
    telegram.script('sendGift', { kind: 'actThenHang' });
    const p = await player({ items: { teddy_bear: 1 } });
    const res = await withdraw(p, 'teddy_bear');
    await waitFor(() => telegram.callsOf('sendGift').length === 1, 'the gift call');
    await server.close();
    server = await start();
    const w = await settled(p, res.body.withdrawal.id);
    expect(w.status).toBe('completed');
    expect(telegram.callsOf('sendGift')).toHaveLength(1);
    // found by probing, not by reading 250 pages from the oldest
    const listings = telegram.callsOf('getStarTransactions').length - listingsBefore;
    expect(listings).toBeGreaterThan(0);
    expect(listings).toBeLessThan(40);

    // a unique gift: transferred, unanswered, restarted: the gift is gone from the account, so delivered
    const stock = telegram.receiveGift(COLLECTION, null, Math.floor(Date.now() / 1000) - 86_400);
    telegram.script('transferGift', { kind: 'actThenHang' });
    const q = await player({ items: { nft_1: 1 } });
    const res2 = await withdraw(q, 'nft_1');
    await waitFor(() => telegram.callsOf('transferGift').length === 1, 'the transfer call');
    await server.close();
    server = await start();
    const w2 = await settled(q, res2.body.withdrawal.id);
    expect(w2.status).toBe('completed');
    expect(telegram.callsOf('transferGift')).toHaveLength(1);
    expect(telegram.owned.some((g) => g.owned_gift_id === stock.owned_gift_id)).toBe(false);
  }, 60_000);

  it('an unanswered call that did not go through is sent again after reconciling', async () => {
    telegram.script('sendGift', { kind: 'hang' });
    const p = await player({ items: { teddy_bear: 1 } });
    const res = await withdraw(p, 'teddy_bear');
    const w = await settled(p, res.body.withdrawal.id, 30_000);
    expect(w.status).toBe('completed');
    // the first call timed out without effect; the second delivered: one gift bought
    const sends = telegram.callsOf('sendGift');
    expect(sends).toHaveLength(2);
  }, 40_000);

  it('rides out a 429 storm: waits retry_after and delivers once', async () => {
    const starsBefore = telegram.stars;
    telegram.script('sendGift', { kind: 'rateLimit', retryAfter: 1 }, 5);
    const p = await player({ items: { teddy_bear: 1 } });
    const res = await withdraw(p, 'teddy_bear');
    const w = await settled(p, res.body.withdrawal.id, 30_000);
    expect(w.status).toBe('completed');
    const sends = telegram.callsOf('sendGift');
    expect(sends).toHaveLength(6);
    // retry_after was honoured between every 429 and the next try
    for (let i = 1; i < sends.length; i++)
      expect(sends[i]!.at - sends[i - 1]!.at).toBeGreaterThanOrEqual(900);
    expect(starsBefore - telegram.stars).toBe(15);
  }, 40_000);

  it.each([
    [400, 'Bad Request: chat not found', 'BOT_NOT_STARTED'],
    [400, 'Bad Request: CHAT_NOT_ACTIVE', 'BOT_NOT_STARTED'],
    [403, 'Forbidden: bot was blocked by the user', 'BOT_BLOCKED'],
    [400, 'Bad Request: STARGIFT_USAGE_LIMITED', 'GIFT_SOLD_OUT'],
    [400, 'Bad Request: BALANCE_TOO_LOW', 'NOT_ENOUGH_STARS'],
  ])('a permanent refusal (%i %s) fails it as %s and returns the item', async (code, description, reason) => {
    telegram.script('sendGift', { kind: 'refuse', code, description });
    const p = await player({ items: { teddy_bear: 1 } });
    const res = await withdraw(p, 'teddy_bear');
    const w = await settled(p, res.body.withdrawal.id);
    expect(w.status).toBe('failed');
    expect(w.failureReason).toBe(reason);
    expect(await quantity(p, 'teddy_bear')).toBe(1);
    expect(telegram.callsOf('sendGift')).toHaveLength(1);
    if (reason === 'BOT_BLOCKED') {
      // a player who blocked the bot is marked and not written to
      const row = await server.built.ctx.db
        .selectFrom('bot_outbox')
        .select('status')
        .where('user_id', '=', BigInt(p.id))
        .executeTakeFirstOrThrow();
      await waitFor(async () => {
        const r = await server.built.ctx.db
          .selectFrom('bot_outbox')
          .select('status')
          .where('user_id', '=', BigInt(p.id))
          .executeTakeFirstOrThrow();
        return r.status === 'skipped';
      }, 'the message skipped');
      expect(row).toBeDefined();
      expect(messagesTo(p.id)).toHaveLength(0);
    } else {
      await waitFor(() => messagesTo(p.id).length === 1, 'the failure message');
      expect(messagesTo(p.id)[0]!.params.text).toMatch(
        /^We could not send Teddy Bear: .+ The item is back in your inventory\.$/,
      );
    }
  });

  it('fails with OUT_OF_STOCK when the business account has no gift of the collection', async () => {
    for (const g of [...telegram.owned]) telegram.owned.splice(telegram.owned.indexOf(g), 1);
    const p = await player({ items: { nft_1: 1 } });
    const res = await withdraw(p, 'nft_1');
    const w = await settled(p, res.body.withdrawal.id);
    expect(w).toMatchObject({ status: 'failed', failureReason: 'OUT_OF_STOCK' });
    expect(await quantity(p, 'nft_1')).toBe(1);
    expect(telegram.callsOf('transferGift')).toHaveLength(0);
    // the operator sees the empty collection among the alerts
    const admin = await server.call<AdminTelegramResponse>('GET', '/admin/telegram', {
      headers: { 'x-admin-key': ADMIN_KEY },
    });
    expect(admin.status).toBe(200);
    expect(admin.body.supplies.collections).toContainEqual({
      collection: COLLECTION,
      itemId: 'nft_1',
      available: 0,
      low: true,
    });
  });

  it('50 concurrent withdrawals of the last unit: exactly one', async () => {
    const p = await player({ items: { teddy_bear: 1 } });
    const answers = await Promise.all(Array.from({ length: 50 }, () => withdraw(p, 'teddy_bear')));
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 404 || a.status === 409)).toBe(
      true,
    );
    const w = await settled(p, accepted[0]!.body.withdrawal.id);
    expect(w.status).toBe('completed');
    expect(telegram.callsOf('sendGift').filter((c) => c.params.user_id === p.id)).toHaveLength(1);
  }, 60_000);
});

describe('gift deposits', () => {
  function giftUpdate(id: number, connection = BUSINESS_CONNECTION_ID) {
    return {
      update_id: id,
      business_message: {
        message_id: id,
        business_connection_id: connection,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 1, type: 'private', first_name: 'Operator' },
        unique_gift: { origin: 'transfer', gift: { base_name: COLLECTION } },
      },
    };
  }

  it('a gift deposit update delivered three times credits once', async () => {
    const p = await player();
    const gift = telegram.receiveGift(COLLECTION, p.id);
    const update = giftUpdate(++updateId);
    for (let i = 0; i < 3; i++) expect((await webhook(update)).status).toBe(200);
    await waitFor(async () => (await quantity(p, 'nft_1')) === 1, 'the gift credited');
    // more reads of the account (the periodic scan, another update) credit nothing more
    expect((await webhook(giftUpdate(++updateId))).status).toBe(200);
    await server.close();
    server = await start();
    await waitFor(() => telegram.callsOf('getBusinessAccountGifts').length >= 2, 'the account read again');
    expect(await quantity(p, 'nft_1')).toBe(1);
    const rows = await server.built.ctx.db
      .selectFrom('gift_deposits')
      .selectAll()
      .where('owned_gift_id', '=', gift.owned_gift_id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'credited', item_id: 'nft_1' });
    await waitFor(() => messagesTo(p.id).length === 1, 'the credited message');
    expect(messagesTo(p.id)[0]!.params.text).toBe('Your gift has arrived: NFT Gift #1 is in your inventory.');
  }, 60_000);

  it('a gift from an unknown sender is recorded and left to the operator', async () => {
    const gift = telegram.receiveGift(COLLECTION, 999_000_111);
    expect((await webhook(giftUpdate(++updateId))).status).toBe(200);
    const row = await waitFor(
      () =>
        server.built.ctx.db
          .selectFrom('gift_deposits')
          .selectAll()
          .where('owned_gift_id', '=', gift.owned_gift_id)
          .executeTakeFirst(),
      'the gift recorded',
    );
    expect(row).toMatchObject({ status: 'unknown_sender', user_id: null, item_id: null });
    const admin = await server.call<AdminTelegramResponse>('GET', '/admin/telegram', {
      headers: { 'x-admin-key': ADMIN_KEY },
    });
    expect(admin.body.unclaimedGifts.map((g) => g.ownedGiftId)).toContain(gift.owned_gift_id);
  });

  it('an update from another business connection does nothing', async () => {
    const before = telegram.callsOf('getBusinessAccountGifts').length;
    const res = await webhook(giftUpdate(++updateId, 'someone-elses-connection'));
    expect(res.status).toBe(200);
    const other = {
      update_id: ++updateId,
      business_connection: {
        id: 'someone-elses-connection',
        user: { id: 42, is_bot: false, first_name: 'Stranger' },
        user_chat_id: 42,
        date: Math.floor(Date.now() / 1000),
        is_enabled: true,
      },
    };
    expect((await webhook(other)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(telegram.callsOf('getBusinessAccountGifts')).toHaveLength(before);
    expect(telegram.calls.some((c) => c.params.business_connection_id === 'someone-elses-connection')).toBe(
      false,
    );
  });
});

describe('the webhook and /start', () => {
  it('a forged update (wrong or missing secret) does nothing', async () => {
    const update = startUpdate({ id: 720_001 }, '/start');
    for (const secret of ['wrong-secret', null]) {
      const res = await webhook(update, secret);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'WEBHOOK_SECRET_INVALID' });
    }
    expect(telegram.callsOf('sendMessage')).toHaveLength(0);
    const seen = await server.built.ctx.db
      .selectFrom('bot_updates')
      .select('update_id')
      .where('update_id', '=', BigInt(update.update_id))
      .executeTakeFirst();
    expect(seen).toBeUndefined();
    const user = await server.built.ctx.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', 720_001n)
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('set the webhook with its secret at start', () => {
    // calls were cleared after the first test; the last restart set it again
    const sets = telegram.requests.filter((r) => r.path.endsWith('/setWebhook'));
    expect(sets.length).toBeGreaterThan(0);
    expect(JSON.parse(sets.at(-1)!.body)).toMatchObject({
      url: `${PUBLIC_URL}/api/telegram/webhook`,
      secret_token: WEBHOOK_SECRET,
    });
  });

  it.each([
    ['/start', '/'],
    ['/start case_starter', '/case/starter'],
    ['/start battle_Ab12-x', '/battle/Ab12-x'],
    ['/start verify_K3yZ_9abcdef', '/verify/K3yZ_9abcdef'],
    ['/start ref_12345', '/'],
    ['/start ../../evil', '/'],
  ])('%s greets with an Open button to %s', async (text, path) => {
    const id = 730_000 + Math.floor(Math.random() * 10_000);
    const update = startUpdate({ id, language_code: 'en' }, text);
    expect((await webhook(update)).status).toBe(200);
    expect((await webhook(update)).status).toBe(200); // a repeat is ignored
    const sent = messagesTo(id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params.text).toMatch(/^Welcome to Giftcases!/);
    expect(sent[0]!.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Open', web_app: { url: `${PUBLIC_URL}${path}` } }]],
    });
    const user = await server.built.ctx.db
      .selectFrom('users')
      .select('bot_can_write')
      .where('id', '=', BigInt(id))
      .executeTakeFirstOrThrow();
    expect(user.bot_can_write).toBe(true);
  });

  it('greets in Russian for a Russian-speaking player', async () => {
    const id = 740_001;
    expect((await webhook(startUpdate({ id, language_code: 'ru' }, '/start case_starter'))).status).toBe(200);
    const sent = messagesTo(id);
    expect(sent[0]!.params.text).toMatch(/^Добро пожаловать в Giftcases!/);
    expect(sent[0]!.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Открыть', web_app: { url: `${PUBLIC_URL}/case/starter` } }]],
    });
  });
});

describe('notifications', () => {
  it("in the player's language, and never to a player who did not allow it", async () => {
    const ru = await player({ language: 'ru' });
    const en = await player({ language: 'en' });
    const silent = await player({ language: 'en', allows: false });
    for (const p of [ru, en, silent]) {
      const credited = await creditDeposit(server.built.ctx, {
        userId: BigInt(p.id),
        amountNano: 1_500_000_000n,
        method: 'ton',
        externalId: `ton:test-${p.id}`,
      });
      expect(credited).toBe(true);
    }
    await waitFor(() => messagesTo(ru.id).length === 1 && messagesTo(en.id).length === 1, 'both messages');
    expect(messagesTo(ru.id)[0]!.params.text).toBe('Депозит 1.5 TON зачислен.');
    expect(messagesTo(en.id)[0]!.params.text).toBe('Your deposit of 1.5 TON has been credited.');
    const row = await waitFor(async () => {
      const r = await server.built.ctx.db
        .selectFrom('bot_outbox')
        .select('status')
        .where('user_id', '=', BigInt(silent.id))
        .executeTakeFirstOrThrow();
      return r.status === 'skipped' ? r : undefined;
    }, 'the silent player skipped');
    expect(row.status).toBe('skipped');
    expect(messagesTo(silent.id)).toHaveLength(0);

    // the silent player starts the bot: from then on they are written to
    expect((await webhook(startUpdate({ id: silent.id }, '/start'))).status).toBe(200);
    await creditDeposit(server.built.ctx, {
      userId: BigInt(silent.id),
      amountNano: 2_000_000_000n,
      method: 'ton',
      externalId: `ton:test-${silent.id}-2`,
    });
    await waitFor(() => messagesTo(silent.id).length === 2, 'the greeting and the credit');
    expect(messagesTo(silent.id)[1]!.params.text).toBe('Your deposit of 2 TON has been credited.');
  });
});
