import { Type, type Static } from 'typebox';
import { Ton } from './common.ts';

export const ProfileStats = Type.Object({ openingsCount: Type.Integer({ minimum: 0 }) });
export type ProfileStats = Static<typeof ProfileStats>;

/** Rank names, lowest first (spec §9); the level display is fixed at Level 1, the first of them. */
export const RANK_NAMES = [
  'Rookie',
  'Explorer',
  'Drop Hunter',
  'Case Master',
  'Bonus Raider',
  'Treasure',
  'Epic Opener',
] as const;
export type RankName = (typeof RANK_NAMES)[number];

/** Level progress is openingsCount / this many cases (spec §9). */
export const LEVEL_PROGRESS_OPENINGS = 350;

export const ProfileLevel = Type.Object({
  level: Type.Integer({ minimum: 1 }),
  rank: Type.Union([
    Type.Literal('Rookie'),
    Type.Literal('Explorer'),
    Type.Literal('Drop Hunter'),
    Type.Literal('Case Master'),
    Type.Literal('Bonus Raider'),
    Type.Literal('Treasure'),
    Type.Literal('Epic Opener'),
  ]),
  /** openingsCount / 350, capped at 1 */
  progress: Type.Number({ minimum: 0, maximum: 1 }),
});
export type ProfileLevel = Static<typeof ProfileLevel>;

/** The achievements, computed from the player's openings. */
export const ACHIEVEMENT_IDS = ['first_case', 'lucky_strike', 'case_collector', 'high_roller'] as const;
export type AchievementId = (typeof ACHIEVEMENT_IDS)[number];

export const Achievement = Type.Object({
  id: Type.Union([
    Type.Literal('first_case'),
    Type.Literal('lucky_strike'),
    Type.Literal('case_collector'),
    Type.Literal('high_roller'),
  ]),
  unlocked: Type.Boolean(),
  /** how far along, 0 to 1, for achievements that count (First Case, Case Collector) */
  progress: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
});
export type Achievement = Static<typeof Achievement>;

/** GET /users/profile */
export const ProfileResponse = Type.Object({
  stats: ProfileStats,
  level: ProfileLevel,
  achievements: Type.Array(Achievement),
});
export type ProfileResponse = Static<typeof ProfileResponse>;

export const BalanceResponse = Type.Object({ balance: Ton });
export type BalanceResponse = Static<typeof BalanceResponse>;
