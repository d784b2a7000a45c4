import { Type, type Static } from 'typebox';

// ── the live drops feed: GET /ws/drops?after=<id> (WebSocket, public: no sign-in) ───────────────────
//
// On connect the server sends one {type: 'drops'} catch-up batch, then a {type: 'drop'} message for every
// case copy opened from then on, by any server instance. The client may send {type: 'ping'} (answered with
// {type: 'pong'}); anything else it sends is ignored.

/** Only public fields: no Telegram id, no balance. */
export const DropUser = Type.Object({
  /** '@' + the Telegram username, or the first name when the player has no username */
  username: Type.String(),
  /** the player's photo URL, or null */
  avatar: Type.Union([Type.String(), Type.Null()]),
});
export type DropUser = Static<typeof DropUser>;

export const DropCase = Type.Object({
  id: Type.String(),
  name: Type.String(),
  imageUrl: Type.String(),
  /** kept for the spec's entity; null: the art is served by URL */
  imageBase64: Type.Union([Type.String(), Type.Null()]),
});
export type DropCase = Static<typeof DropCase>;

export const DropItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  imageUrl: Type.String(),
});
export type DropItem = Static<typeof DropItem>;

/** One opened case copy (spec §3, drop feed event). */
export const DropEvent = Type.Object({
  /**
   * The opening's id, a decimal integer as a string. Ids grow with time on every instance (one database
   * sequence), so they order the feed and `after` resumes it.
   */
  id: Type.String({ pattern: '^[0-9]+$' }),
  /** when the copy was opened: ISO 8601 UTC with milliseconds, e.g. 2025-01-31T12:00:00.000Z */
  timestamp: Type.String({ format: 'date-time' }),
  user: DropUser,
  case: DropCase,
  item: DropItem,
  /** the opening's public bet id: anyone can check it at /verify/<betId> (GET /api/fairness/bets/<betId>) */
  betId: Type.String(),
});
export type DropEvent = Static<typeof DropEvent>;

/** The socket's query string. */
export const DropFeedQuery = Type.Object({
  /** the last drop id the client saw: the catch-up then holds only newer drops */
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
});
export type DropFeedQuery = Static<typeof DropFeedQuery>;

/**
 * The first message on every connection: the newest drops (at most DROP_FEED_CATCH_UP of them), newest
 * first, or with `after` the newest drops with a greater id. Read from the database, so every instance
 * answers alike. Drops opened while it was being read follow as {type: 'drop'} messages, none repeated.
 */
export const DropsMessage = Type.Object({ type: Type.Literal('drops'), drops: Type.Array(DropEvent) });
export type DropsMessage = Static<typeof DropsMessage>;

/** One live drop. */
export const DropMessage = Type.Object({ type: Type.Literal('drop'), drop: DropEvent });
export type DropMessage = Static<typeof DropMessage>;

export type DropFeedServerMessage = DropsMessage | DropMessage | { type: 'pong' };
export type DropFeedClientMessage = { type: 'ping' };

/** Most drops in a catch-up batch. */
export const DROP_FEED_CATCH_UP = 50;
/** The client shows the 30 newest drops and keeps 50 (spec §9). */
export const DROP_FEED_SHOWN = 30;
export const DROP_FEED_KEPT = 50;

/** Close codes of the drops socket. */
export const DropFeedCloseCode = {
  /** the server is stopping: reconnect (with backoff) */
  GOING_AWAY: 1001,
  /** the catch-up could not be read */
  SERVER_ERROR: 1011,
  /** the client did not keep up (its unsent backlog grew too large): reconnect with `after` */
  TOO_SLOW: 1013,
} as const;
