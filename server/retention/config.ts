import { tryParseTon } from '../../contract/money.ts';
import { RANK_NAMES } from '../../contract/users.ts';

/**
 * The operator's settings of the retention features (README, "Daily wheel, promo codes, ranks, invites"):
 *
 *   WHEEL_PRIZES             the daily wheel's 12 segments, segment 0 first: `ton:<amount>:<weight>`,
 *                            `case:<caseId>:<weight>` (a free opening of that case) or `none:<weight>`
 *   WHEEL_COOLDOWN_SECONDS   time between two daily spins of a player (rolling; 86400)
 *   RANK_TABLE               ranks 2 to 7: `<openings>:<reward>` each, reward `spin`, `ton:<amount>`,
 *                            `case:<caseId>` or `none`; rank 1 (Rookie) is where every player starts
 *   INVITE_SHARE             share of an invitee's wagers' house edge (wager × (1 − RTP)) paid to the
 *                            inviter, daily: a fraction in [0, 1] with at most 6 decimals (0.2)
 */

type PrizeKind = 'ton' | 'case' | 'none';

interface WheelPrize {
  kind: PrizeKind;
  /** TON prizes: the amount, nanoTON; 0 otherwise */
  amountNano: bigint;
  /** case prizes: the case opened for free */
  caseId: string | null;
  /** integer weight of the segment in the roll */
  weight: number;
  /** the segment's text in the proof's table: `ton:0.1`, `case:starter`, `none` */
  label: string;
}

type RankRewardKind = 'spin' | 'ton' | 'case';

export interface RankStep {
  /** 1 for the first rank */
  level: number;
  name: (typeof RANK_NAMES)[number];
  /** paid openings needed */
  openings: number;
  /** what reaching it grants; null for the first rank and a rank without a reward */
  reward: { kind: RankRewardKind; amountNano: bigint; caseId: string | null } | null;
}

export interface RetentionConfig {
  wheelPrizes: WheelPrize[];
  wheelCooldownMs: number;
  ranks: RankStep[];
  /** INVITE_SHARE in millionths */
  inviteSharePpm: number;
}

/** The wheel has 12 segments (spec §9). */
const WHEEL_SEGMENTS = 12;

const DEFAULT_WHEEL_PRIZES =
  'ton:0.05:300,none:150,ton:0.1:200,case:starter:30,ton:0.25:100,none:100,' +
  'ton:0.5:50,case:sweet:15,ton:1:20,none:50,ton:2:5,ton:5:1';

const DEFAULT_RANK_TABLE = '1:spin,5:ton:0.25,15:case:starter,40:ton:1,100:case:surfboard,250:ton:5';

const CASE_ID = /^[a-z0-9_-]{1,64}$/;

function parseWheelPrizes(raw: string): WheelPrize[] {
  const fail = (why: string): never => {
    throw new Error(`WHEEL_PRIZES: ${why} (got "${raw}")`);
  };
  const prizes = raw.split(',').map((part): WheelPrize => {
    const bits = part.trim().split(':');
    const weightText = bits[bits.length - 1] ?? '';
    const weight = Number(weightText);
    if (!/^[1-9][0-9]{0,8}$/.test(weightText)) fail(`"${part}" needs a positive whole weight last`);
    if (bits[0] === 'none' && bits.length === 2) {
      return { kind: 'none', amountNano: 0n, caseId: null, weight, label: 'none' };
    }
    if (bits[0] === 'ton' && bits.length === 3) {
      const amountNano = tryParseTon(bits[1]!);
      if (amountNano === null || amountNano <= 0n) fail(`"${part}" has no valid TON amount`);
      return { kind: 'ton', amountNano: amountNano!, caseId: null, weight, label: `ton:${bits[1]}` };
    }
    if (bits[0] === 'case' && bits.length === 3 && CASE_ID.test(bits[1]!)) {
      return { kind: 'case', amountNano: 0n, caseId: bits[1]!, weight, label: `case:${bits[1]}` };
    }
    return fail(`"${part}" is not ton:<amount>:<weight>, case:<caseId>:<weight> or none:<weight>`);
  });
  if (prizes.length !== WHEEL_SEGMENTS) fail(`the wheel has ${WHEEL_SEGMENTS} segments`);
  return prizes;
}

function parseRankTable(raw: string): RankStep[] {
  const fail = (why: string): never => {
    throw new Error(`RANK_TABLE: ${why} (got "${raw}")`);
  };
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== RANK_NAMES.length - 1) fail(`list ranks 2 to ${RANK_NAMES.length}`);
  const steps: RankStep[] = [{ level: 1, name: RANK_NAMES[0], openings: 0, reward: null }];
  parts.forEach((part, i) => {
    const [count, kind, value, extra] = part.split(':');
    const openings = Number(count);
    if (!/^[1-9][0-9]{0,6}$/.test(count ?? '') || openings <= steps[steps.length - 1]!.openings) {
      fail(`"${part}": openings must be whole numbers, rising from rank to rank`);
    }
    let reward: RankStep['reward'] | undefined;
    if (kind === 'none' && value === undefined) reward = null;
    else if (kind === 'spin' && value === undefined) reward = { kind: 'spin', amountNano: 0n, caseId: null };
    else if (kind === 'ton' && value !== undefined && extra === undefined) {
      const amountNano = tryParseTon(value);
      if (amountNano !== null && amountNano > 0n) reward = { kind: 'ton', amountNano, caseId: null };
    } else if (kind === 'case' && value !== undefined && extra === undefined && CASE_ID.test(value)) {
      reward = { kind: 'case', amountNano: 0n, caseId: value };
    }
    if (reward === undefined) fail(`"${part}": the reward is spin, ton:<amount>, case:<caseId> or none`);
    steps.push({ level: i + 2, name: RANK_NAMES[i + 1]!, openings, reward: reward ?? null });
  });
  return steps;
}

function parseShare(raw: string): number {
  if (!/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(raw)) {
    throw new Error(`INVITE_SHARE must be a fraction from 0 to 1 with at most 6 decimals (got "${raw}")`);
  }
  const [whole, frac = ''] = raw.split('.');
  return Number(whole) * 1_000_000 + Number(frac.padEnd(6, '0'));
}

export function loadRetentionConfig(env: NodeJS.ProcessEnv): RetentionConfig {
  const text = (name: string) => env[name]?.trim() || null;
  const cooldown = Number(text('WHEEL_COOLDOWN_SECONDS') ?? '86400');
  if (!Number.isInteger(cooldown) || cooldown < 1) {
    throw new Error('WHEEL_COOLDOWN_SECONDS must be a positive whole number of seconds');
  }
  return {
    wheelPrizes: parseWheelPrizes(text('WHEEL_PRIZES') ?? DEFAULT_WHEEL_PRIZES),
    wheelCooldownMs: cooldown * 1000,
    ranks: parseRankTable(text('RANK_TABLE') ?? DEFAULT_RANK_TABLE),
    inviteSharePpm: parseShare(text('INVITE_SHARE') ?? '0.2'),
  };
}

/** The case ids the settings name: each must be a catalogue case (checked at start). */
export function namedCases(config: RetentionConfig): string[] {
  const ids = [
    ...config.wheelPrizes.map((p) => p.caseId),
    ...config.ranks.map((r) => r.reward?.caseId ?? null),
  ];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}
