import { Type, type Static } from 'typebox';
import { Ton } from './common.ts';
import type { DropsMessage } from './feed.ts';
import type { DepositCreditedMessage } from './deposit.ts';
import type { BattleEventMessage } from './battles.ts';
import { WithdrawalStatus } from './inventory.ts';

// ── the app socket: GET /ws?after=<drop id> (WebSocket) ────────────────────────────────────────────
//
// One socket per app carries everything the server pushes:
// - the live drops feed, public: {type: 'drops'} first (the catch-up: the newest drops, or with `after`
//   only newer ones), then {type: 'drops'} batches of new drops, at most one batch per FEED_BATCH_MS (less
//   often on an instance holding many thousands of sockets: a batch every 2 s at 10,000), each
//   of at most FEED_BATCH_MAX drops (the newest) plus, on a signed-in socket, the player's own drops that
//   did not fit in the batch (in a {type: 'drops'} of their own);
// - after {type: 'auth', token}: {type: 'auth_ok'} and the player's balance at once ({type: 'balance'}),
//   then the balance after every committed change (any instance, any cause), and {type:
//   'deposit_credited'} for each credit of a deposit, {type: 'withdrawal'} for each change of one of the
//   player's withdrawals; a refused token gets {type: 'auth_failed'} and the
//   socket stays open for the public feed (sign in again and send another auth);
// - after {type: 'battles', watch}: the events of the battles watched.
// The client never needs to ping: the server pings at the protocol level and sends {type: 'hb'} now and
// then, so a client hearing nothing for HEARTBEAT_MS × 2 knows the connection is dead.

/** Client → server: sign in on this socket (again after a new sign-in; the last one counts). */
export const AppSocketAuth = Type.Object({
  type: Type.Literal('auth'),
  token: Type.String({ maxLength: 4096 }),
});
export type AppSocketAuth = Static<typeof AppSocketAuth>;

/**
 * Client → server: the battles whose events this socket wants ('all': every battle, for the lobby; a list
 * of public battle ids; an empty list: none). Replaces the previous choice.
 */
export const AppSocketWatchBattles = Type.Object({
  type: Type.Literal('battles'),
  watch: Type.Union([Type.Literal('all'), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })]),
});
export type AppSocketWatchBattles = Static<typeof AppSocketWatchBattles>;

export type AppSocketClientMessage = AppSocketAuth | AppSocketWatchBattles;

/** Server → client: the token was accepted; the balance follows. */
export const AppSocketAuthOk = Type.Object({ type: Type.Literal('auth_ok') });
export type AppSocketAuthOk = Static<typeof AppSocketAuthOk>;

/** Server → client: the token was refused (invalid, expired, unknown user); the feed goes on. */
export const AppSocketAuthFailed = Type.Object({ type: Type.Literal('auth_failed') });
export type AppSocketAuthFailed = Static<typeof AppSocketAuthFailed>;

/**
 * Server → client: the player's balance. `version` is the id of the last ledger row it includes (decimal
 * text, '0' before the first): versions only grow, so a client keeps the balance with the greatest version
 * and ignores an older one arriving late. Sent on auth, and after every committed change, in ledger order.
 */
export const BalanceMessage = Type.Object({
  type: Type.Literal('balance'),
  balance: Ton,
  version: Type.String({ pattern: '^[0-9]+$' }),
});
export type BalanceMessage = Static<typeof BalanceMessage>;

/**
 * Server → client, signed in: one of the player's withdrawals changed (the bot began delivering it, a unit
 * was delivered, it completed or failed, an operator resolved it): the client reads its withdrawals again.
 */
export const WithdrawalChangedMessage = Type.Object({
  type: Type.Literal('withdrawal'),
  id: Type.String({ pattern: '^[0-9]+$' }),
  status: WithdrawalStatus,
});
export type WithdrawalChangedMessage = Static<typeof WithdrawalChangedMessage>;

/** Server → client: a sign of life, every HEARTBEAT_MS (the client sends nothing back). */
export const HeartbeatMessage = Type.Object({ type: Type.Literal('hb') });
export type HeartbeatMessage = Static<typeof HeartbeatMessage>;

export type AppSocketServerMessage =
  | DropsMessage
  | AppSocketAuthOk
  | AppSocketAuthFailed
  | BalanceMessage
  | DepositCreditedMessage
  | BattleEventMessage
  | WithdrawalChangedMessage
  | HeartbeatMessage;

/** The app socket's query string. */
export const AppSocketQuery = Type.Object({
  /** the last drop id the client saw: the feed's catch-up then holds only newer drops */
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
});
export type AppSocketQuery = Static<typeof AppSocketQuery>;

/** New drops go out together, at most one batch per this many ms (a busy feed costs each socket little). */
export const FEED_BATCH_MS = 1000;
/**
 * Most drops in a live batch: the newest of its window. Ten a second is more than a person follows and
 * turns the 30 shown drops over in three seconds; when more are opened the live feed is a sample of them
 * (every socket would otherwise get every drop: at a few hundred a second, tens of kilobytes a second per
 * socket, hundreds of megabytes a second for an instance's sockets). A player always gets their own drops,
 * and a catch-up (a reconnect) holds the newest drops whatever the sample was.
 */
export const FEED_BATCH_MAX = 10;
/** The server sends {type: 'hb'} this often. */
export const HEARTBEAT_MS = 25_000;
