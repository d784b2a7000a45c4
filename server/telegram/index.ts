import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { publicBaseUrl } from '../config.ts';
import type { AppContext } from '../context.ts';
import { createTelegramApis, type TelegramCalls } from './api.ts';
import { ALLOWED_UPDATES, createBot } from './bot.ts';
import { DeliveryWorker, ownedGifts } from './delivery.ts';
import { GiftDeposits } from './gift-deposits.ts';
import { startLoop, type JobLoop } from './loop.ts';
import { startLeasedJob, type LeasedJobHandle } from '../jobs/lease.ts';
import { OutboxSender } from './outbox.ts';
import {
  DEMO_COLLECTIONS,
  SIMULATED_CONNECTION_ID,
  SIMULATED_GIFT_ACCOUNT,
  SimulatedTelegram,
} from './simulated.ts';
import { START_TEXTS } from './texts.ts';
import { publishWithdrawal } from '../realtime/withdrawals.ts';

/**
 * The Telegram side of the server, in one of three modes:
 *  - 'bot': BOT_TOKEN is set: a grammY bot takes updates (webhook when PUBLIC_URL is https, long polling
 *    otherwise), the outbox sends notifications, the delivery worker sends withdrawals as gifts, gift
 *    deposits are read from the configured business connection;
 *  - 'simulated': demo mode (no BOT_TOKEN): the same workers against a simulated Telegram in memory;
 *  - 'off': TELEGRAM_BOT=off: no bot; withdrawals wait for an operator (admin API), as before the bot.
 * Each background job (the outbox, the delivery worker, the gift scan, long polling) runs on the one
 * instance holding its lease in Postgres; the webhook is answered by any instance.
 */

type TelegramMode = 'bot' | 'simulated' | 'off';

interface SupplyReport {
  /** the bot's Stars balance (regular gifts are paid from it), null when it could not be read */
  stars: number | null;
  starsLow: boolean;
  /** per mapped collection: transferable gifts left in the business account */
  collections: { collection: string; itemId: string; available: number; low: boolean }[];
  checkedAt: string;
}

export interface TelegramService {
  mode: TelegramMode;
  /** whether withdrawals are delivered by the bot (then only items with a Telegram gift can leave) */
  delivers: boolean;
  /** gift deposits: the business connection in use (configured, or the simulated one), null when off */
  giftConnectionId: string | null;
  /** the account players send gifts to */
  giftAccount: string | null;
  simulator: SimulatedTelegram | null;
  /** the secret Telegram sends with webhook updates; null unless in webhook mode */
  webhookSecret: string | null;
  /** checks a webhook request's secret in constant time */
  checkWebhookSecret(given: string | undefined): boolean;
  handleUpdate(update: Update): Promise<void>;
  kickDelivery(): void;
  kickGiftScan(): void;
  supplies(): Promise<SupplyReport>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** How long the bot waits before trying to start again when Telegram did not answer, ms. */
const UPDATES_RETRY_MS = 30_000;

export function createTelegram(ctx: AppContext, log?: FastifyBaseLogger): TelegramService {
  const { config } = ctx;
  const mode: TelegramMode = ctx.demo ? 'simulated' : config.telegramBot ? 'bot' : 'off';
  const simulator = mode === 'simulated' ? new SimulatedTelegram(config.demoGiftDelayMs, log) : null;
  const apis = mode === 'bot' ? createTelegramApis(config, ctx.botToken) : null;
  const messageCalls: TelegramCalls | null =
    simulator ?? (apis?.messages as TelegramCalls | undefined) ?? null;
  const giftCalls: TelegramCalls | null = simulator ?? (apis?.gifts as TelegramCalls | undefined) ?? null;
  const giftConnectionId = simulator ? SIMULATED_CONNECTION_ID : config.telegramBusinessConnectionId;
  const giftAccount = simulator ? SIMULATED_GIFT_ACCOUNT : config.telegramGiftAccount;
  const appUrl = publicBaseUrl(config);
  const webhook = mode === 'bot' && appUrl.startsWith('https://');
  // derived from the token: every instance agrees on it without configuration; [A-Za-z0-9_-] as Telegram wants
  const webhookSecret = webhook
    ? createHash('sha256').update(`telegram-webhook:${ctx.botToken}`).digest('hex')
    : null;

  const jobs: LeasedJobHandle[] = [];
  let outbox: JobLoop | null = null;
  let delivery: JobLoop | null = null;
  let giftScan: JobLoop | null = null;
  /** Each background job runs on the one instance holding its lease in Postgres (server/jobs/lease.ts). */
  const leased = (name: string, start: () => void, stop: () => Promise<void>) =>
    startLeasedJob(ctx, { name, log, start, stop });
  let bot: Bot | null = null;
  let polling: Promise<void> | null = null;
  let lastSupplyCheck = 0;

  const supplies = async (signal?: AbortSignal): Promise<SupplyReport> => {
    let stars: number | null = null;
    if (giftCalls) {
      try {
        stars = (await giftCalls.getMyStarBalance(signal)).amount;
      } catch (err) {
        log?.warn({ err }, 'the Stars balance could not be read');
      }
    }
    const mapped = await ctx.db
      .selectFrom('item_gifts')
      .select(['item_id', 'collection'])
      .where('collection', 'is not', null)
      .orderBy('item_id')
      .execute();
    let owned: Awaited<ReturnType<typeof ownedGifts>> = [];
    if (giftCalls && giftConnectionId && mapped.length > 0) {
      try {
        owned = await ownedGifts(giftCalls, giftConnectionId, signal);
      } catch (err) {
        log?.warn({ err }, 'the business account gifts could not be read');
      }
    }
    const collections = mapped.map((m) => {
      const available = owned.filter(
        (g) => g.type === 'unique' && g.gift.base_name === m.collection && g.can_be_transferred === true,
      ).length;
      return {
        collection: m.collection!,
        itemId: m.item_id,
        available,
        low: available < config.telegramStockLow,
      };
    });
    const report: SupplyReport = {
      stars,
      starsLow: stars !== null && stars < config.telegramStarsLow,
      collections,
      checkedAt: new Date().toISOString(),
    };
    if (report.starsLow) {
      log?.warn(
        { stars, threshold: config.telegramStarsLow },
        'OPERATOR ALERT: the bot is low on Stars for gifts',
      );
    }
    for (const c of collections.filter((x) => x.low)) {
      log?.warn(
        { collection: c.collection, available: c.available, threshold: config.telegramStockLow },
        'OPERATOR ALERT: few gifts of a collection left in the business account',
      );
    }
    return report;
  };

  // one function per job, each easy to run under a lease
  const startOutbox = () => {
    const sender = new OutboxSender(ctx.db, messageCalls!, log);
    let recovered = false;
    return startLoop(
      'bot-outbox',
      config.telegramWorkMs,
      async (signal) => {
        if (!recovered) {
          await sender.recoverInterrupted();
          recovered = true;
        }
        while ((await sender.tick(signal)) > 0 && !signal.aborted);
      },
      log,
    );
  };
  const startDelivery = () => {
    const worker = new DeliveryWorker(
      ctx.db,
      giftCalls!,
      {
        businessConnectionId: giftConnectionId,
        onShortage: () => {
          lastSupplyCheck = 0;
        },
        // the player's open app reads its withdrawals again (a lost message costs only freshness)
        onChange: (change) => {
          publishWithdrawal(ctx.bus, change).catch((err: unknown) =>
            log?.warn({ err }, 'a withdrawal change was not published'),
          );
        },
      },
      log,
    );
    return startLoop(
      'gift-delivery',
      config.telegramWorkMs,
      async (signal) => {
        while ((await worker.tick(signal)) > 0 && !signal.aborted);
        if (Date.now() - lastSupplyCheck > 5 * 60_000) {
          lastSupplyCheck = Date.now();
          await supplies(signal);
        }
      },
      log,
    );
  };
  const deposits =
    giftCalls && giftConnectionId ? new GiftDeposits(ctx, giftCalls, giftConnectionId, log) : null;
  const startGiftScan = () =>
    startLoop('gift-deposits', config.telegramGiftScanMs, (signal) => deposits!.scan(signal), log);
  /** A business update said a gift arrived: the scan runs now, here (crediting is once per gift anyway). */
  const giftHint = () => {
    if (giftScan) giftScan.kick();
    else void deposits?.scan().catch((err: unknown) => log?.warn({ err }, 'gift deposit scan failed'));
  };
  /** Long polling (no https PUBLIC_URL): one instance takes updates, under the 'bot-updates' lease. */
  const startPolling = () => {
    polling = bot!.start({ allowed_updates: [...ALLOWED_UPDATES] }).catch((err: unknown) => {
      log?.error({ err }, 'telegram polling stopped');
    });
  };
  const stopPolling = async () => {
    if (bot?.isRunning()) await bot.stop().catch(() => undefined);
    await polling;
    polling = null;
  };
  const startUpdates = async (signal: AbortSignal) => {
    const next = createBot(config, ctx.botToken, ctx.db, { onGiftHint: giftHint }, log);
    await next.init(signal);
    if (webhook) {
      // every instance answers the webhook; Telegram's repeats and two instances are told apart by update_id
      await next.api.setWebhook(
        `${appUrl}/api/telegram/webhook`,
        { secret_token: webhookSecret!, allowed_updates: [...ALLOWED_UPDATES] },
        signal,
      );
    }
    if (signal.aborted) return;
    bot = next;
    if (!webhook) jobs.push(leased('bot-updates', startPolling, stopPolling));
    if (webhook) {
      await next.api
        .setChatMenuButton(
          { menu_button: { type: 'web_app', text: START_TEXTS.en.menu, web_app: { url: appUrl } } },
          signal,
        )
        .catch((err: unknown) => log?.warn({ err }, 'the menu button could not be set'));
    }
    log?.info({ username: next.botInfo.username, webhook }, 'telegram bot started');
  };
  /**
   * The bot starts in the background: Telegram may be unreachable at start (or for a while), and the server
   * serves meanwhile; it tries again every UPDATES_RETRY_MS until it starts or the server stops.
   */
  const starting = new AbortController();
  let startup: Promise<void> = Promise.resolve();
  const startUpdatesUntilDone = async () => {
    const { signal } = starting;
    while (!signal.aborted) {
      try {
        await startUpdates(signal);
        return;
      } catch (err) {
        if (signal.aborted) return;
        log?.error({ err }, `the telegram bot could not start: trying again in ${UPDATES_RETRY_MS / 1000} s`);
      }
      // a stop ends the wait at once (and leaves no listener behind on the signal, retry after retry)
      await sleep(UPDATES_RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  };

  return {
    mode,
    delivers: mode !== 'off',
    giftConnectionId: mode === 'off' ? null : giftConnectionId,
    giftAccount: mode === 'off' || !giftConnectionId ? null : giftAccount,
    simulator,
    webhookSecret,
    checkWebhookSecret(given) {
      if (!webhookSecret || typeof given !== 'string') return false;
      const a = createHash('sha256').update(given).digest();
      const b = createHash('sha256').update(webhookSecret).digest();
      return timingSafeEqual(a, b);
    },
    async handleUpdate(update) {
      if (!bot) throw new Error('the bot is not running');
      await bot.handleUpdate(update);
    },
    kickDelivery: () => delivery?.kick(),
    kickGiftScan: () => giftScan?.kick(),
    supplies: () => supplies(),
    async start() {
      if (mode === 'off') return;
      if (simulator) {
        await applyDemoGiftMapping(ctx);
        log?.warn(
          'SIMULATED TELEGRAM: no BOT_TOKEN, so withdrawals are "delivered" by a simulation and gift deposits are simulated',
        );
      }
      jobs.push(
        leased(
          'bot-outbox',
          () => void (outbox = startOutbox()),
          async () => {
            await outbox?.stop();
            outbox = null;
          },
        ),
        leased(
          'gift-delivery',
          () => void (delivery = startDelivery()),
          async () => {
            await delivery?.stop();
            delivery = null;
          },
        ),
      );
      if (deposits) {
        jobs.push(
          leased(
            'gift-deposits',
            () => void (giftScan = startGiftScan()),
            async () => {
              await giftScan?.stop();
              giftScan = null;
            },
          ),
        );
      }
      if (mode === 'bot') startup = startUpdatesUntilDone();
    },
    async stop() {
      // a start still waiting for Telegram is given up at once (its calls are aborted), then the jobs stop
      starting.abort();
      await startup;
      await Promise.all(jobs.map((j) => j.stop()));
    },
  };
}

/**
 * Demo mode's item→gift mapping (only where an item has none): the demo collections for a few items, a
 * simulated regular gift for the others, none for TON items (they are sold, not withdrawn).
 */
async function applyDemoGiftMapping(ctx: AppContext): Promise<void> {
  const items = await ctx.db
    .selectFrom('items')
    .leftJoin('item_gifts as g', 'g.item_id', 'items.id')
    .select(['items.id'])
    .where('g.item_id', 'is', null)
    .execute();
  const rows = items
    .filter(({ id }) => !id.startsWith('ton_'))
    .map(({ id }) => {
      const collection = DEMO_COLLECTIONS[id];
      return { item_id: id, gift_id: collection ? null : `sim-${id}`, collection: collection ?? null };
    });
  if (rows.length === 0) return;
  await ctx.db
    .insertInto('item_gifts')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}
