import { Type, type Static } from 'typebox';
import { Item } from './cases.ts';
import { Ton } from './common.ts';
import { PrizeCase } from './retention.ts';

export const ProfileStats = Type.Object({ openingsCount: Type.Integer({ minimum: 0 }) });
export type ProfileStats = Static<typeof ProfileStats>;

/** Rank names, lowest first (spec §9); the rank table (RANK_TABLE) gives each its threshold and reward. */
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
  /** the way from this rank's threshold to the next one's, 0 to 1 (1 at the last rank) */
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

/** One rank of the ladder: its threshold (paid openings), its reward, and what the player got. */
export const RankView = Type.Object({
  level: Type.Integer({ minimum: 1 }),
  rank: Type.String(),
  openings: Type.Integer({ minimum: 0 }),
  reached: Type.Boolean(),
  /** what reaching it grants; null for the first rank */
  reward: Type.Union([
    Type.Object({
      kind: Type.Union([Type.Literal('spin'), Type.Literal('ton'), Type.Literal('case')]),
      amount: Type.Union([Ton, Type.Null()]),
      case: Type.Union([PrizeCase, Type.Null()]),
    }),
    Type.Null(),
  ]),
  /** the reward as given: when, and for a case opening the item drawn */
  granted: Type.Union([
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      /** spin rewards: spent on the wheel */
      spinUsed: Type.Boolean(),
      openingBetId: Type.Union([Type.String(), Type.Null()]),
      item: Type.Union([Item, Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export type RankView = Static<typeof RankView>;

/** GET /users/profile */
export const ProfileResponse = Type.Object({
  stats: ProfileStats,
  level: ProfileLevel,
  achievements: Type.Array(Achievement),
  /** the rank ladder with each rank's reward */
  ranks: Type.Array(RankView),
});
export type ProfileResponse = Static<typeof ProfileResponse>;

export const BalanceResponse = Type.Object({ balance: Ton });
export type BalanceResponse = Static<typeof BalanceResponse>;
