import { sql, type CompiledQuery, type QueryResult, type Transaction } from 'kysely';
import type { ProfileLevel, RankView } from '../../contract/users.ts';
import { formatTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { toApiItem } from '../games/cases.ts';
import { loadRetentionConfig, type RankStep } from './config.ts';
import { recordFreeOpening, type PrizeCase } from './free-opening.ts';
import { commitWith } from '../db/postgres-driver.ts';

/**
 * Ranks and their rewards (README, "Ranks"). A player's rank is the highest whose threshold of paid
 * openings they have reached (RANK_TABLE). Each rank above the first grants its reward once, the moment it
 * is reached, inside the opening's own transaction: a free wheel spin, TON (a `rank_reward` ledger row,
 * external id `rank:<player>:<level>`) or a free opening of a case. The rank_rewards primary key
 * (player, level) is what makes it once: an x3 opening that crosses two thresholds grants both, and
 * concurrent openings queue on the player's row, so the second finds the reward granted.
 */

type Trx = Transaction<Database>;

const LEDGER_KIND_RANK_REWARD = 'rank_reward';

/** The rank table in use: RANK_TABLE, set when the app is built (setRankTable). */
let table: RankStep[] = loadRetentionConfig({}).ranks;

export function setRankTable(ranks: RankStep[]): void {
  table = ranks;
}

/** The player's rank for a number of paid openings, with the progress toward the next one. */
export function levelFor(openings: number): ProfileLevel {
  const reached = table.filter((r) => r.openings <= openings);
  const current = reached[reached.length - 1] ?? table[0]!;
  const next = table.find((r) => r.openings > openings) ?? null;
  const progress = next
    ? Math.min(Math.max((openings - current.openings) / (next.openings - current.openings), 0), 1)
    : 1;
  return { level: current.level, rank: current.name, progress };
}

/** Whether an opening that brought the paid openings to `openings` (`copies` of them its own) reaches a rank with a reward. */
export function rankRewardDue(openings: number, copies: number): boolean {
  return dueSteps(openings, copies).length > 0;
}

/** The prize cases of the case rewards of every rank an opening that brought the paid openings to `openings` (`copies` of them its own) reaches. */
export function rankPrizeCases(openings: number, copies: number): string[] {
  const ids = dueSteps(openings, copies).flatMap((r) =>
    r.reward?.kind === 'case' ? [r.reward.caseId!] : [],
  );
  return [...new Set(ids)];
}

function dueSteps(openings: number, copies: number): RankStep[] {
  const before = openings - copies;
  return table.filter((r) => r.reward !== null && r.openings > before && r.openings <= openings);
}

/** What a case reward's free opening draws with: the player's seed pair (locked) and its next nonce, and the prize cases read (rankPrizeCases). */
export interface RankRewardDraws {
  seed: { id: bigint; server_seed: string; server_seed_hash: string; client_seed: string };
  nonce: number;
  prizes: ReadonlyMap<string, PrizeCase>;
}

/**
 * The one call the opening transaction makes once it has counted the openings (`openings` after it, of
 * which `copies` are its own): grants the reward of every rank this opening reached, once, and answers the
 * player's balance afterwards (a TON reward is in it). The player's row is locked already (the opening
 * locked it first), so each threshold is crossed by exactly one opening. Each reward is one statement (a
 * case reward's free opening draws the pair's next nonce, `draws`); with `commits` the last one carries the
 * transaction's COMMIT (db/postgres-driver.ts, commitWith), so nothing may run on it afterwards.
 */
export async function grantRankRewards(
  trx: Trx,
  reached: { userId: bigint; balanceNano: bigint; openings: number; copies: number },
  draws: RankRewardDraws,
  commits: boolean,
): Promise<bigint> {
  const { userId } = reached;
  const due = dueSteps(reached.openings, reached.copies);
  let balance = reached.balanceNano;
  let nonce = draws.nonce;
  for (const [i, step] of due.entries()) {
    const reward = step.reward!;
    const last = commits && i === due.length - 1;
    if (reward.kind === 'ton') {
      balance =
        (await grantTonReward(trx, userId, step.level, step.name, reward.amountNano, last)) ?? balance;
    } else if (reward.kind === 'case') {
      const prize = draws.prizes.get(reward.caseId!);
      if (!prize) throw new Error(`the prize case "${reward.caseId}" was not read`);
      const opening = await recordFreeOpening(
        trx,
        { userId, source: 'rank', prize, nonce: { seed: draws.seed, nonce }, rank: { level: step.level } },
        last,
      );
      // a reward granted already (a retry, a race lost) wrote nothing and took no nonce
      if (opening) nonce += 1;
    } else {
      const insert = spinRewardQuery(trx, userId, step);
      if (last) await commitWith(trx, insert);
      else await trx.executeQuery(insert);
    }
  }
  return balance;
}

/**
 * The statements of the rewards an opening reaches (as grantRankRewards grants them), when none of them is a
 * case: a spin's and a TON reward's statements do not depend on what the opening's records return, so they
 * can go in the records' own exchange (db/postgres-driver.ts, executeTogether), one round trip fewer. Null
 * when a case reward is due: its free opening draws from the prize case read with the records, so
 * grantRankRewards runs after them. `balanceOf` reads, from these statements' results, the balance the last
 * TON reward left (null when none credited anything: granted already).
 */
export function rankRewardStatements(
  trx: Trx,
  userId: bigint,
  openings: number,
  copies: number,
): { queries: CompiledQuery[]; balanceOf(results: readonly QueryResult<unknown>[]): bigint | null } | null {
  const due = dueSteps(openings, copies);
  if (due.some((step) => step.reward!.kind === 'case')) return null;
  const queries = due.map((step) =>
    step.reward!.kind === 'ton'
      ? tonRewardQuery(trx, userId, step.level, step.name, step.reward!.amountNano)
      : spinRewardQuery(trx, userId, step),
  );
  return {
    queries,
    balanceOf(results) {
      let balance: bigint | null = null;
      due.forEach((step, i) => {
        if (step.reward!.kind !== 'ton') return;
        const row = results[i]?.rows[0] as { ledger_balance_nano: bigint | string } | undefined;
        if (row) balance = BigInt(row.ledger_balance_nano);
      });
      return balance;
    },
  };
}

/** A rank's spin (or other row-only) reward: the rank_rewards row; the primary key is the once. */
function spinRewardQuery(trx: Trx, userId: bigint, step: RankStep): CompiledQuery {
  return trx
    .insertInto('rank_rewards')
    .values({
      user_id: userId,
      level: step.level,
      reward_kind: step.reward!.kind,
      amount_nano: 0n,
      case_id: null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'level']).doNothing())
    .compile();
}

/**
 * A TON rank reward in one statement: unless the rank's reward is granted already (its rank_rewards row) or
 * its credit is in the ledger (external id `rank:<player>:<level>`), credits the player, writes the ledger
 * row and records the reward with it. The player's row is locked by the opening, so the checks cannot race.
 * Returns the balance after, or null when nothing was granted. Like the opening's debit it returns the player
 * as `ledger_user_id` with the balance and the ledger row's id, so the ledger watch (db/ledger-watch.ts)
 * pushes the new balance after the commit without reading it.
 */
async function grantTonReward(
  trx: Trx,
  userId: bigint,
  level: number,
  rankName: string,
  amountNano: bigint,
  commits: boolean,
): Promise<bigint | null> {
  const query = tonRewardQuery(trx, userId, level, rankName, amountNano);
  const { rows } = commits ? await commitWith(trx, query) : await trx.executeQuery(query);
  const row = rows[0];
  return row ? BigInt(row.ledger_balance_nano) : null;
}

/** grantTonReward's statement (its one row tells the balance after; no row: granted already). */
function tonRewardQuery(trx: Trx, userId: bigint, level: number, rankName: string, amountNano: bigint) {
  const externalId = `rank:${userId}:${level}`;
  return sql<{ ledger_user_id: bigint; ledger_balance_nano: bigint; ledger_version: bigint }>`
    WITH due AS (
      SELECT 1 WHERE NOT EXISTS (
        SELECT 1 FROM rank_rewards WHERE user_id = ${userId}::bigint AND level = ${level}::integer
      ) AND NOT EXISTS (SELECT 1 FROM ledger WHERE external_id = ${externalId})
    ), credited AS (
      UPDATE users SET balance_nano = balance_nano + ${amountNano}::bigint, updated_at = now()
      WHERE id = ${userId}::bigint AND EXISTS (SELECT 1 FROM due)
      RETURNING balance_nano
    ), entry AS (
      INSERT INTO ledger (user_id, delta_nano, balance_after_nano, kind, ref, external_id)
      SELECT ${userId}::bigint, ${amountNano}::bigint, balance_nano, ${LEDGER_KIND_RANK_REWARD}, ${rankName},
             ${externalId}
      FROM credited
      RETURNING id, balance_after_nano
    ), granted AS (
      INSERT INTO rank_rewards (user_id, level, reward_kind, amount_nano, ledger_id)
      SELECT ${userId}::bigint, ${level}::integer, 'ton', ${amountNano}::bigint, id FROM entry
      RETURNING level
    )
    SELECT ${userId}::bigint AS ledger_user_id, e.balance_after_nano AS ledger_balance_nano,
           e.id AS ledger_version
    FROM entry e CROSS JOIN granted`.compile(trx);
}

/** The rank ladder for the profile: every rank, its threshold and reward, and what the player got. */
export async function rankLadder(db: Db, userId: bigint, openings: number): Promise<RankView[]> {
  const rewards = await db
    .selectFrom('rank_rewards as r')
    .leftJoin('free_openings as f', 'f.id', 'r.free_opening_id')
    .leftJoin('items as i', 'i.id', 'f.item_id')
    .leftJoin('wheel_spins as w', 'w.id', 'r.spin_id')
    .select([
      'r.level',
      'r.created_at',
      'r.spin_id',
      'f.public_id as opening_bet_id',
      'i.id as item_id',
      'i.name as item_name',
      'i.price_nano as item_price_nano',
      'i.image_url as item_image_url',
      'i.rarity as item_rarity',
    ])
    .where('r.user_id', '=', userId)
    .execute();
  const byLevel = new Map(rewards.map((r) => [r.level, r]));
  const caseIds = table.map((r) => r.reward?.caseId).filter((id): id is string => !!id);
  const cases = new Map(
    caseIds.length === 0
      ? []
      : (
          await db
            .selectFrom('cases')
            .select(['id', 'name', 'image_url'])
            .where('id', 'in', caseIds)
            .execute()
        ).map((c) => [c.id, { id: c.id, name: c.name, imageUrl: c.image_url }]),
  );
  return table.map((step) => {
    const got = byLevel.get(step.level);
    return {
      level: step.level,
      rank: step.name,
      openings: step.openings,
      reached: openings >= step.openings,
      reward: step.reward
        ? {
            kind: step.reward.kind,
            amount: step.reward.kind === 'ton' ? formatTon(step.reward.amountNano) : null,
            case: step.reward.caseId ? (cases.get(step.reward.caseId) ?? null) : null,
          }
        : null,
      granted: got
        ? {
            at: got.created_at.toISOString(),
            spinUsed: got.spin_id !== null,
            openingBetId: got.opening_bet_id,
            item:
              got.item_id && got.item_name && got.item_image_url && got.item_rarity
                ? toApiItem({
                    id: got.item_id,
                    name: got.item_name,
                    price_nano: got.item_price_nano ?? 0n,
                    image_url: got.item_image_url,
                    rarity: got.item_rarity,
                  })
                : null,
          }
        : null,
    };
  });
}
