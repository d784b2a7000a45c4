import { Type, type Static } from 'typebox';
import { Ton } from './common.ts';

// ── the wager race: GET /race (public; with a bearer token it also tells the player's own place) ─────
// Points are the TON wagered in the race's period: cases opened, upgrade stakes and battle seats (seats
// refunded by a cancelled battle do not count), read from the books, never from the client.

export const RaceEntry = Type.Object({
  place: Type.Integer({ minimum: 1 }),
  /** Telegram first name */
  name: Type.String(),
  avatar: Type.Union([Type.String(), Type.Null()]),
  /** TON wagered in the period */
  points: Ton,
  /** the prize this place wins at the end (0 when none) */
  prize: Ton,
});
export type RaceEntry = Static<typeof RaceEntry>;

export const RaceYou = Type.Object({
  /** null while the player has wagered nothing in this race */
  place: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  points: Ton,
});

export const RaceResponse = Type.Object({
  /** `${periodSeconds}:${index}`: races are consecutive periods since the Unix epoch */
  id: Type.String(),
  startsAt: Type.String({ format: 'date-time' }),
  endsAt: Type.String({ format: 'date-time' }),
  /** the server's clock, for the countdown */
  now: Type.String({ format: 'date-time' }),
  /** prizes by place: prizes[0] for the first place */
  prizes: Type.Array(Ton),
  leaderboard: Type.Array(RaceEntry),
  /** the signed-in player's standing; null without a token */
  you: Type.Union([RaceYou, Type.Null()]),
});
export type RaceResponse = Static<typeof RaceResponse>;
