import type { ServerResponse } from 'node:http';
import { sendJson, startHttp, type RecordedRequest } from './http.ts';

/**
 * A local stand-in for the Telegram Bot API, in its documented format: POST /bot<token>/<method> with JSON
 * parameters, answered {ok: true, result} or {ok: false, error_code, description, parameters?: {retry_after}}.
 * It records every call, keeps a small world (a business account's owned gifts, the bot's Star
 * transactions and balance, updates waiting for getUpdates), and can be told to answer a method's next
 * calls with a 429 and retry_after, a 5xx, no answer at all (a timeout), a permanent refusal, or to do what
 * was asked and then never answer (the caller dies between the call and recording it).
 */

interface BotApiCall {
  at: number;
  method: string;
  params: Record<string, unknown>;
}

type Scripted =
  | { kind: 'rateLimit'; retryAfter: number }
  | { kind: 'serverError'; code?: number }
  | { kind: 'hang' }
  | { kind: 'refuse'; code: number; description: string }
  | { kind: 'actThenHang' };

interface StandInGift {
  owned_gift_id: string;
  collection: string;
  sender_id: number | null;
  send_date: number;
}

export interface TelegramStandIn {
  /** the apiRoot to hand grammY (TELEGRAM_API_ROOT) */
  apiRoot: string;
  token: string;
  calls: BotApiCall[];
  /** every request as received (headers, raw body) */
  requests: RecordedRequest[];
  /** the business account's unique gifts */
  owned: StandInGift[];
  stars: number;
  /** answer the next `times` calls of a method this way */
  script(method: string, answer: Scripted, times?: number): void;
  /** a unique gift of a collection arrives on the business account */
  receiveGift(collection: string, senderId: number | null, sendDate?: number): StandInGift;
  /** an update for getUpdates (long polling) */
  pushUpdate(update: Record<string, unknown>): void;
  /** `count` Star transactions of other players' gifts, dated `date` (Unix seconds), as if long past */
  pastTransactions(count: number, date: number): void;
  callsOf(method: string): BotApiCall[];
  close(): Promise<void>;
}

let giftSequence = 0;

export async function startTelegram(token = '123456:TEST-stand-in-token'): Promise<TelegramStandIn> {
  const scripts = new Map<string, Scripted[]>();
  const calls: BotApiCall[] = [];
  const owned: StandInGift[] = [];
  const transactions: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const hanging = new Set<ServerResponse>();
  const state = { stars: 10_000 };

  const ok = (res: ServerResponse, result: unknown) => sendJson(res, 200, { ok: true, result });
  const fail = (res: ServerResponse, code: number, description: string, retryAfter?: number) =>
    sendJson(res, code, {
      ok: false,
      error_code: code,
      description,
      ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
    });

  const uniqueGift = (g: StandInGift) => ({
    type: 'unique',
    owned_gift_id: g.owned_gift_id,
    send_date: g.send_date,
    can_be_transferred: true,
    transfer_star_count: 25,
    ...(g.sender_id !== null
      ? { sender_user: { id: g.sender_id, is_bot: false, first_name: 'Sender' } }
      : {}),
    gift: {
      gift_id: `gift-of-${g.collection}`,
      base_name: g.collection,
      name: `${g.collection.replace(/\W+/g, '')}-${g.owned_gift_id}`,
      number: 1,
      model: { name: 'm', sticker: sticker(), rarity_per_mille: 10 },
      symbol: { name: 's', sticker: sticker(), rarity_per_mille: 10 },
      backdrop: {
        name: 'b',
        colors: { center_color: 1, edge_color: 2, symbol_color: 3, text_color: 4 },
        rarity_per_mille: 10,
      },
    },
  });

  /** Does what a method asks; returns its result, or throws [code, description]. */
  const act = (method: string, p: Record<string, unknown>): unknown => {
    switch (method) {
      case 'getMe':
        return {
          id: Number(token.split(':')[0]),
          is_bot: true,
          first_name: 'Giftcases',
          username: 'giftcases_test_bot',
          can_join_groups: false,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
          can_connect_to_business: true,
          has_main_web_app: true,
        };
      case 'setWebhook':
      case 'deleteWebhook':
      case 'setChatMenuButton':
      case 'setMyCommands':
        return true;
      case 'sendMessage':
        return {
          message_id: calls.length,
          date: Math.floor(Date.now() / 1000),
          chat: { id: p.chat_id, type: 'private', first_name: 'Player' },
          text: p.text,
        };
      case 'sendGift': {
        if (state.stars < 15) throw [400, 'Bad Request: BALANCE_TOO_LOW'];
        state.stars -= 15;
        transactions.push({
          id: `tx-${transactions.length + 1}`,
          amount: 15,
          date: Math.floor(Date.now() / 1000),
          receiver: {
            type: 'user',
            transaction_type: 'gift_purchase',
            user: { id: p.user_id, is_bot: false, first_name: 'Player' },
            gift: { id: p.gift_id, sticker: sticker(), star_count: 15 },
          },
        });
        return true;
      }
      case 'transferGift': {
        if (p.business_connection_id !== BUSINESS_CONNECTION_ID)
          throw [400, 'Bad Request: BUSINESS_CONNECTION_INVALID'];
        const index = owned.findIndex((g) => g.owned_gift_id === p.owned_gift_id);
        if (index < 0) throw [400, 'Bad Request: STARGIFT_NOT_FOUND'];
        owned.splice(index, 1);
        return true;
      }
      case 'getBusinessAccountGifts': {
        if (p.business_connection_id !== BUSINESS_CONNECTION_ID)
          throw [400, 'Bad Request: BUSINESS_CONNECTION_INVALID'];
        const offset = Number(p.offset ?? 0) || 0;
        const limit = Number(p.limit ?? 100);
        const page = owned.slice(offset, offset + limit);
        const next = offset + page.length;
        return {
          total_count: owned.length,
          gifts: page.map(uniqueGift),
          ...(next < owned.length ? { next_offset: String(next) } : {}),
        };
      }
      case 'getStarTransactions': {
        const offset = Number(p.offset ?? 0);
        return { transactions: transactions.slice(offset, offset + Number(p.limit ?? 100)) };
      }
      case 'getMyStarBalance':
        return { amount: state.stars };
      case 'getUpdates': {
        const offset = Number(p.offset ?? 0);
        while (updates.length > 0 && Number(updates[0]!.update_id) < offset) updates.shift();
        return updates.slice();
      }
      default:
        throw [404, 'Not Found: method not found'];
    }
  };

  const http = await startHttp(async (req, res) => {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.path);
    if (!match || req.method !== 'POST') return fail(res, 404, 'Not Found');
    if (match[1] !== token) return fail(res, 401, 'Unauthorized');
    const method = match[2]!;
    let params: Record<string, unknown>;
    try {
      params = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    } catch {
      return fail(res, 400, 'Bad Request: invalid JSON');
    }
    calls.push({ at: Date.now(), method, params });
    const queue = scripts.get(method);
    const scripted = queue?.shift();
    if (scripted) {
      switch (scripted.kind) {
        case 'rateLimit':
          return fail(res, 429, `Too Many Requests: retry after ${scripted.retryAfter}`, scripted.retryAfter);
        case 'serverError':
          return fail(res, scripted.code ?? 502, 'Bad Gateway');
        case 'refuse':
          return fail(res, scripted.code, scripted.description);
        case 'hang':
          hanging.add(res);
          return;
        case 'actThenHang':
          try {
            act(method, params);
          } catch {
            // the effect failed; the caller still never hears
          }
          hanging.add(res);
          return;
      }
    }
    if (method === 'getUpdates' && updates.length === 0) {
      // long polling: hold the call a little while nothing is waiting
      const until = Date.now() + Math.min(Number(params.timeout ?? 0), 1) * 1000;
      while (updates.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    }
    try {
      ok(res, act(method, params));
    } catch (err) {
      const [code, description] = err as [number, string];
      fail(res, code, description);
    }
  });

  return {
    apiRoot: http.origin,
    token,
    calls,
    requests: http.requests,
    owned,
    get stars() {
      return state.stars;
    },
    set stars(value: number) {
      state.stars = value;
    },
    script(method, answer, times = 1) {
      const queue = scripts.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(answer);
      scripts.set(method, queue);
    },
    receiveGift(collection, senderId, sendDate = Math.floor(Date.now() / 1000)) {
      const gift = {
        owned_gift_id: `owned-${++giftSequence}`,
        collection,
        sender_id: senderId,
        send_date: sendDate,
      };
      owned.push(gift);
      return gift;
    },
    pushUpdate(update) {
      updates.push(update);
    },
    pastTransactions(count, date) {
      // older than everything listed so far: they go first (the list is chronological)
      const past = Array.from({ length: count }, (_, i) => ({
        id: `past-${date}-${i}`,
        amount: 15,
        date,
        receiver: {
          type: 'user',
          transaction_type: 'gift_purchase',
          user: { id: 1_000 + (i % 97), is_bot: false, first_name: 'Someone' },
          gift: { id: 'past-gift', sticker: sticker(), star_count: 15 },
        },
      }));
      transactions.unshift(...past);
    },
    callsOf: (method) => calls.filter((c) => c.method === method),
    async close() {
      for (const res of hanging) res.destroy();
      await http.close();
    },
  };
}

/** The business connection id the stand-in's business account answers to. */
export const BUSINESS_CONNECTION_ID = 'biz-connection-operator';

function sticker() {
  return {
    file_id: 'f',
    file_unique_id: 'u',
    type: 'custom_emoji',
    width: 512,
    height: 512,
    is_animated: false,
    is_video: false,
  };
}
