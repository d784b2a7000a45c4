import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type {
  Battle,
  BattleFormat,
  BattleMode,
  BattleStatus,
  CreateBattleRequest,
} from '../../contract/battles.ts';
import type { Db } from '../db/index.ts';
import type { BattleRowStatus, Database } from '../db/schema.ts';
import { lockPlayer, lockPlayers } from '../db/locks.ts';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import { formatTon as nanoToTon } from '../../contract/money.ts';
import { enqueueNotification } from '../telegram/outbox.ts';
import { loadEntries, toApiItem, type ItemRow } from './cases.ts';
import { hashSeed, newClientSeed, newServerSeed } from './fair.ts';
import { addToInventory } from './opening.ts';
import {
  awardItems,
  botClientSeed,
  decideWinner,
  publicSeedOf,
  rollAll,
  seatCount,
  teamOf,
} from './battle-rules.ts';

/**
 * Case battles: creating, joining, bots, rolling, paying out, cancelling (DESIGN.md rules 1-4).
 *
 * Money: a seat is a conditional debit of the battle's cost with a 'battle_seat' ledger row, in the same
 * transaction as the seat row; the seat's primary key (battle, seat) and the battle row lock make a seat
 * impossible to sell twice. Lock order, everywhere: player rows first (ascending ids when there are several),
 * then the battle row, then items. When the last seat is taken, the same transaction draws every round
 * (status 'rolled'); the items are handed out later, once the rounds have played (settle_at), in one
 * transaction that moves the battle to 'settled' only from 'rolled', so a battle is paid exactly once; a
 * server that stopped in between pays it at its next start (settleDueBattles). An open battle is cancelled
 * by its creator or when it expires, refunding every seat once (unique external id per seat).
 */

type Trx = Transaction<Database>;

export const LEDGER_KIND_BATTLE_SEAT = 'battle_seat';
export const LEDGER_KIND_BATTLE_REFUND = 'battle_refund';

export interface BattleTiming {
  /** how long an open battle waits for players before it is cancelled, ms */
  lobbyTimeoutMs: number;
  /** the time between two rounds' reveals, ms (0: all at once) */
  roundMs: number;
}

/** What happened, for the live events (sent after the transaction commits). */
export interface BattleChange {
  publicId: string;
  event: 'created' | 'seat' | 'started' | 'finished' | 'cancelled';
  /** set when this change rolled the battle: when to reveal the rounds and settle */
  started?: { rounds: number; startedAt: Date; settleAt: Date };
}

const notOpen = () => conflict('BATTLE_NOT_OPEN', 'This battle is no longer open: all seats are taken');

function newPublicId(): string {
  return randomBytes(8).toString('hex');
}

async function findBattleRow(db: Db | Trx, publicId: string) {
  const row = await db.selectFrom('battles').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  if (!row) throw notFound('BATTLE_NOT_FOUND', `There is no battle "${publicId}"`);
  return row;
}

/** The conditional debit of one seat, with its ledger row. Locks the player's row. */
async function debitSeat(trx: Trx, userId: bigint, cost: bigint, publicId: string) {
  const row = await trx
    .updateTable('users')
    .set((eb) => ({ balance_nano: eb('balance_nano', '-', cost), updated_at: sql<Date>`now()` }))
    .where('id', '=', userId)
    .where('balance_nano', '>=', cost)
    .returning(['balance_nano'])
    .executeTakeFirst();
  if (!row) {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
    throw new HttpError(402, 'INSUFFICIENT_BALANCE', 'Not enough funds: top up your balance to take a seat');
  }
  const ledger = await trx
    .insertInto('ledger')
    .values({
      user_id: userId,
      delta_nano: -cost,
      balance_after_nano: row.balance_nano,
      kind: LEDGER_KIND_BATTLE_SEAT,
      ref: publicId,
      external_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { balanceNano: row.balance_nano, ledgerId: ledger.id };
}

/** Creates a battle and seats its creator at seat 0 (debiting the cost). Run inside the request's transaction. */
export async function createBattle(
  trx: Trx,
  userId: bigint,
  request: CreateBattleRequest,
  timing: BattleTiming,
): Promise<{ publicId: string; balanceNano: bigint; change: BattleChange }> {
  await lockPlayer(trx, userId); // the player first (server/db/locks.ts), then the battle it creates
  const ids = [...new Set(request.caseIds)];
  const cases = await trx
    .selectFrom('cases')
    .select(['id', 'price_nano', 'is_active', 'is_locked'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(cases.map((c) => [c.id, c]));
  const entries = await loadEntries(trx, ids);
  for (const id of ids) {
    const box = byId.get(id);
    if (!box) throw notFound('CASE_NOT_FOUND', `There is no case "${id}"`);
    if (!box.is_active) throw conflict('CASE_INACTIVE', `The case "${id}" cannot be played right now`);
    if (box.is_locked) throw forbidden('CASE_LOCKED', `The case "${id}" is locked`);
    if ((entries.get(id) ?? []).length === 0) throw conflict('CASE_EMPTY', `The case "${id}" has no items`);
  }
  const cost = request.caseIds.reduce((sum, id) => sum + byId.get(id)!.price_nano, 0n);
  const publicId = newPublicId();
  const { balanceNano, ledgerId } = await debitSeat(trx, userId, cost, publicId);

  const serverSeed = newServerSeed();
  const battle = await trx
    .insertInto('battles')
    .values({
      public_id: publicId,
      creator_id: userId,
      format: request.format,
      seat_count: seatCount(request.format),
      mode: request.mode,
      cost_nano: cost,
      status: 'open',
      server_seed: serverSeed,
      server_seed_hash: hashSeed(serverSeed),
      expires_at: new Date(Date.now() + timing.lobbyTimeoutMs),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('battle_rounds')
    .values(
      request.caseIds.map((caseId, i) => ({
        battle_id: battle.id,
        round: i + 1,
        case_id: caseId,
        case_price_nano: byId.get(caseId)!.price_nano,
      })),
    )
    .execute();
  await trx
    .insertInto('battle_seats')
    .values({
      battle_id: battle.id,
      seat: 0,
      user_id: userId,
      is_bot: false,
      client_seed: request.clientSeed ?? newClientSeed(),
      join_index: 0,
      ledger_id: ledgerId,
    })
    .execute();
  return { publicId, balanceNano, change: { publicId, event: 'created' } };
}

/** Takes a seat in an open battle (the given one, or the first free one), debiting its cost. */
export async function joinBattle(
  trx: Trx,
  userId: bigint,
  publicId: string,
  wanted: { seat?: number; clientSeed?: string },
  timing: BattleTiming,
): Promise<{ balanceNano: bigint; change: BattleChange }> {
  await lockPlayer(trx, userId); // the player first (server/db/locks.ts), then the battle
  const peek = await findBattleRow(trx, publicId);
  if (peek.status !== 'open') throw notOpen();
  if (wanted.seat !== undefined && wanted.seat >= peek.seat_count) {
    throw conflict('SEAT_NOT_FOUND', `This battle has seats 0 to ${peek.seat_count - 1}`);
  }
  // the player's row first (the debit locks it), then the battle's
  const { balanceNano, ledgerId } = await debitSeat(trx, userId, peek.cost_nano, publicId);
  const battle = await trx
    .selectFrom('battles')
    .selectAll()
    .where('id', '=', peek.id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (battle.status !== 'open') throw notOpen();
  const seats = await trx
    .selectFrom('battle_seats')
    .select(['seat', 'user_id'])
    .where('battle_id', '=', battle.id)
    .execute();
  if (seats.some((s) => s.user_id === userId)) {
    throw conflict('ALREADY_SEATED', 'You already have a seat in this battle');
  }
  const taken = new Set(seats.map((s) => s.seat));
  let seat: number;
  if (wanted.seat !== undefined) {
    if (taken.has(wanted.seat)) throw conflict('SEAT_TAKEN', 'That seat has just been taken');
    seat = wanted.seat;
  } else {
    const free = Array.from({ length: battle.seat_count }, (_, s) => s).find((s) => !taken.has(s));
    if (free === undefined) throw notOpen();
    seat = free;
  }
  await trx
    .insertInto('battle_seats')
    .values({
      battle_id: battle.id,
      seat,
      user_id: userId,
      is_bot: false,
      client_seed: wanted.clientSeed ?? newClientSeed(),
      join_index: seats.length,
      ledger_id: ledgerId,
    })
    .execute();
  if (seats.length + 1 < battle.seat_count) return { balanceNano, change: { publicId, event: 'seat' } };
  return { balanceNano, change: await rollBattle(trx, battle.id, timing) };
}

/** The creator fills every empty seat of their open battle with house bots; the battle starts. */
export async function fillWithBots(
  db: Db,
  userId: bigint,
  publicId: string,
  timing: BattleTiming,
): Promise<BattleChange> {
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, userId); // the player first (server/db/locks.ts), then the battle
    const peek = await findBattleRow(trx, publicId);
    if (peek.creator_id !== userId) throw forbidden('NOT_CREATOR', 'Only the battle’s creator can add bots');
    const battle = await trx
      .selectFrom('battles')
      .selectAll()
      .where('id', '=', peek.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (battle.status !== 'open') throw notOpen();
    const seats = await trx
      .selectFrom('battle_seats')
      .select('seat')
      .where('battle_id', '=', battle.id)
      .execute();
    const taken = new Set(seats.map((s) => s.seat));
    const free = Array.from({ length: battle.seat_count }, (_, s) => s).filter((s) => !taken.has(s));
    await trx
      .insertInto('battle_seats')
      .values(
        free.map((seat, i) => ({
          battle_id: battle.id,
          seat,
          user_id: null,
          is_bot: true,
          client_seed: botClientSeed(publicId, seat),
          join_index: seats.length + i,
          ledger_id: null,
        })),
      )
      .execute();
    return rollBattle(trx, battle.id, timing);
  });
}

/**
 * Draws every round for every seat of a full battle whose row the caller has locked, fixes the public
 * seed, decides the winner and who receives each item, and marks the battle 'rolled'.
 */
async function rollBattle(trx: Trx, battleId: bigint, timing: BattleTiming): Promise<BattleChange> {
  const battle = await trx
    .selectFrom('battles')
    .selectAll()
    .where('id', '=', battleId)
    .executeTakeFirstOrThrow();
  const seats = await trx
    .selectFrom('battle_seats')
    .select(['seat', 'client_seed', 'join_index'])
    .where('battle_id', '=', battleId)
    .orderBy('join_index')
    .execute();
  const rounds = await trx
    .selectFrom('battle_rounds')
    .select(['round', 'case_id'])
    .where('battle_id', '=', battleId)
    .orderBy('round')
    .execute();
  const entries = await loadEntries(trx, [...new Set(rounds.map((r) => r.case_id))]);
  const publicSeed = publicSeedOf(seats.map((s) => s.client_seed));
  const rolls = rollAll(
    battle.server_seed,
    publicSeed,
    rounds.map((r) => {
      const list = entries.get(r.case_id) ?? [];
      return { weights: list.map((e) => e.weight), entries: list };
    }),
    battle.seat_count,
  );
  const seatTotals = Array.from({ length: battle.seat_count }, () => 0n);
  for (const r of rolls) seatTotals[r.seat]! += r.entry.item.price_nano;
  const outcome = decideWinner(battle.format, battle.mode, seatTotals, battle.server_seed, publicSeed);
  const awards = awardItems(
    battle.format,
    outcome.winnerTeam,
    rolls.map((r) => ({ round: r.round, seat: r.seat, price: r.entry.item.price_nano })),
  );
  await trx
    .insertInto('battle_rolls')
    .values(
      rolls.map((r) => ({
        battle_id: battleId,
        round: r.round,
        seat: r.seat,
        item_id: r.entry.item.id,
        item_price_nano: r.entry.item.price_nano,
        roll: r.roll,
        total_weight: r.totalWeight,
        awarded_seat: awards.get(`${r.round}:${r.seat}`) ?? null,
      })),
    )
    .execute();
  const startedAt = new Date();
  const settleAt = new Date(startedAt.getTime() + rounds.length * timing.roundMs);
  await trx
    .updateTable('battles')
    .set({
      status: 'rolled',
      public_seed: publicSeed,
      winner_team: outcome.winnerTeam,
      tie_roll: outcome.tieRoll,
      started_at: startedAt,
      settle_at: settleAt,
    })
    .where('id', '=', battleId)
    .execute();
  return {
    publicId: battle.public_id,
    event: 'started',
    started: { rounds: rounds.length, startedAt, settleAt },
  };
}

class LockOrderChanged extends Error {}

/**
 * Runs `work` with the battle's human players locked (ascending ids) and then the battle row, so the
 * lock order matches every other money path. If a player joined between reading the seats and locking the
 * battle, the transaction is retried with the new set.
 */
async function withBattleLocked<T>(
  db: Db,
  battleId: bigint,
  work: (trx: Trx, battle: Awaited<ReturnType<typeof findBattleRow>>) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const humans = async () =>
          (
            await trx
              .selectFrom('battle_seats')
              .select('user_id')
              .where('battle_id', '=', battleId)
              .where('user_id', 'is not', null)
              .execute()
          )
            .map((s) => s.user_id!)
            .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const players = await humans();
        await lockPlayers(trx, players);
        const battle = await trx
          .selectFrom('battles')
          .selectAll()
          .where('id', '=', battleId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const now = await humans();
        if (now.some((id) => !players.includes(id))) throw new LockOrderChanged();
        return work(trx, battle);
      });
    } catch (err) {
      if (err instanceof LockOrderChanged && attempt < 5) continue;
      throw err;
    }
  }
}

/** Refunds every human seat of a locked open battle once and marks it cancelled. */
async function refundAll(trx: Trx, battleId: bigint, publicId: string, cost: bigint): Promise<void> {
  const seats = await trx
    .selectFrom('battle_seats')
    .select(['seat', 'user_id'])
    .where('battle_id', '=', battleId)
    .where('user_id', 'is not', null)
    .orderBy('user_id')
    .execute();
  for (const s of seats) {
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ balance_nano: eb('balance_nano', '+', cost), updated_at: sql<Date>`now()` }))
      .where('id', '=', s.user_id!)
      .returning('balance_nano')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('ledger')
      .values({
        user_id: s.user_id!,
        delta_nano: cost,
        balance_after_nano: row.balance_nano,
        kind: LEDGER_KIND_BATTLE_REFUND,
        ref: publicId,
        external_id: `battle:${publicId}:refund:${s.seat}`,
      })
      .execute();
  }
  await trx
    .updateTable('battles')
    .set({ status: 'cancelled', finished_at: new Date() })
    .where('id', '=', battleId)
    .execute();
}

/** The creator cancels their open battle: every seat is refunded. Returns the creator's balance after. */
export async function cancelBattle(
  db: Db,
  userId: bigint,
  publicId: string,
): Promise<{ balanceNano: bigint; change: BattleChange }> {
  const peek = await findBattleRow(db, publicId);
  if (peek.creator_id !== userId) throw forbidden('NOT_CREATOR', 'Only the battle’s creator can cancel it');
  return withBattleLocked(db, peek.id, async (trx, battle) => {
    if (battle.status !== 'open') throw conflict('BATTLE_STARTED', 'This battle has already started');
    await refundAll(trx, battle.id, publicId, battle.cost_nano);
    const me = await trx
      .selectFrom('users')
      .select('balance_nano')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { balanceNano: me.balance_nano, change: { publicId, event: 'cancelled' } };
  });
}

/** Cancels and refunds every open battle past its expiry time. */
export async function expireBattles(db: Db, now = new Date()): Promise<BattleChange[]> {
  const due = await db
    .selectFrom('battles')
    .select(['id', 'public_id'])
    .where('status', '=', 'open')
    .where('expires_at', '<=', now)
    .orderBy('id')
    .limit(100)
    .execute();
  const changes: BattleChange[] = [];
  for (const b of due) {
    const done = await withBattleLocked(db, b.id, async (trx, battle) => {
      if (battle.status !== 'open') return false;
      await refundAll(trx, battle.id, battle.public_id, battle.cost_nano);
      return true;
    });
    if (done) changes.push({ publicId: b.public_id, event: 'cancelled' });
  }
  return changes;
}

/**
 * Hands a rolled battle's items to the winners, in one transaction, once: only a battle still 'rolled'
 * under its lock is paid. Returns whether this call paid it.
 */
export async function settleBattle(db: Db, battleId: bigint): Promise<boolean> {
  return withBattleLocked(db, battleId, async (trx, battle) => {
    if (battle.status !== 'rolled') return false;
    const won = await trx
      .selectFrom('battle_rolls as r')
      .innerJoin('battle_seats as s', (j) =>
        j.onRef('s.battle_id', '=', 'r.battle_id').onRef('s.seat', '=', 'r.awarded_seat'),
      )
      .innerJoin('items as i', 'i.id', 'r.item_id')
      .select(['s.user_id', 'i.id', 'i.name', 'i.name_ru', 'i.price_nano', 'i.rarity', 'i.image_url'])
      .select(['i.created_at', 'i.updated_at'])
      .where('r.battle_id', '=', battleId)
      .where('s.user_id', 'is not', null)
      .orderBy('s.user_id')
      .execute();
    const byUser = new Map<bigint, ItemRow[]>();
    for (const { user_id, ...item } of won) {
      const list = byUser.get(user_id!) ?? [];
      list.push(item);
      byUser.set(user_id!, list);
    }
    for (const [userId, items] of byUser) {
      await addToInventory(trx, userId, items);
      // the bot tells each winner (from its outbox, written with the items)
      const total = items.reduce((sum, i) => sum + i.price_nano, 0n);
      await enqueueNotification(
        trx,
        userId,
        'battle_won',
        { total: nanoToTon(total), battleId: battle.public_id },
        `battle:${battleId}:won:${userId}`,
      );
    }
    await trx
      .updateTable('battles')
      .set({ status: 'settled', finished_at: new Date() })
      .where('id', '=', battleId)
      .execute();
    return true;
  });
}

/** Pays every rolled battle whose rounds have played out (at start: also those a stopped server left). */
export async function settleDueBattles(db: Db, now = new Date()): Promise<string[]> {
  const due = await db
    .selectFrom('battles')
    .select(['id', 'public_id'])
    .where('status', '=', 'rolled')
    .where('settle_at', '<=', now)
    .orderBy('id')
    .limit(100)
    .execute();
  const paid: string[] = [];
  for (const b of due) if (await settleBattle(db, b.id)) paid.push(b.public_id);
  return paid;
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────────

const API_STATUS: Record<BattleRowStatus, BattleStatus> = {
  open: 'open',
  rolled: 'running',
  settled: 'finished',
  cancelled: 'cancelled',
};

/** Battles as the API shows them, in the order of the given ids. Rounds are revealed by time. */
export async function loadBattles(
  db: Db,
  ids: readonly bigint[],
  viewer: bigint | null,
  roundMs: number,
  now = new Date(),
): Promise<Battle[]> {
  if (ids.length === 0) return [];
  const battles = await db.selectFrom('battles').selectAll().where('id', 'in', ids).execute();
  const rounds = await db
    .selectFrom('battle_rounds as r')
    .innerJoin('cases as c', 'c.id', 'r.case_id')
    .select(['r.battle_id', 'r.round', 'r.case_price_nano', 'c.id', 'c.name', 'c.image_url'])
    .where('r.battle_id', 'in', ids)
    .orderBy('r.battle_id')
    .orderBy('r.round')
    .execute();
  const entries = await loadEntries(db, [...new Set(rounds.map((r) => r.id))]);
  const seats = await db
    .selectFrom('battle_seats as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.battle_id',
      's.seat',
      's.user_id',
      's.is_bot',
      's.client_seed',
      'u.first_name',
      'u.photo_url',
    ])
    .where('s.battle_id', 'in', ids)
    .execute();
  const rolls = await db
    .selectFrom('battle_rolls as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .select(['r.battle_id', 'r.round', 'r.seat', 'r.roll', 'r.total_weight', 'r.awarded_seat'])
    .select(['i.id', 'i.name', 'i.price_nano', 'i.rarity', 'i.image_url', 'i.created_at', 'i.updated_at'])
    .where('r.battle_id', 'in', ids)
    .orderBy('r.battle_id')
    .orderBy('r.round')
    .orderBy('r.seat')
    .execute();

  const byId = new Map(battles.map((b) => [b.id, b]));
  return ids.flatMap((id) => {
    const b = byId.get(id);
    if (!b) return [];
    const myRounds = rounds.filter((r) => r.battle_id === id);
    let revealed = 0;
    if (b.status === 'settled') revealed = myRounds.length;
    else if (b.status === 'rolled' && b.started_at) {
      const elapsed = now.getTime() - b.started_at.getTime();
      revealed =
        roundMs <= 0 ? myRounds.length : Math.min(myRounds.length, Math.floor(elapsed / roundMs) + 1);
    }
    const shown = rolls.filter((r) => r.battle_id === id && r.round <= revealed);
    const totals = Array.from({ length: b.seat_count }, () => 0n);
    for (const r of shown) totals[r.seat]! += r.price_nano;
    const seatRows = new Map(seats.filter((s) => s.battle_id === id).map((s) => [s.seat, s]));
    const creatorSeat = [...seatRows.values()].find((s) => s.user_id === b.creator_id)?.seat ?? 0;
    const full = b.public_seed !== null;
    return [
      {
        id: b.public_id,
        format: b.format as BattleFormat,
        mode: b.mode as BattleMode,
        status: API_STATUS[b.status],
        cost: nanoToTon(b.cost_nano),
        cases: myRounds.map((r) => ({
          id: r.id,
          name: r.name,
          imageUrl: r.image_url,
          price: nanoToTon(r.case_price_nano),
          items: (entries.get(r.id) ?? []).map((e) => toApiItem(e.item)),
        })),
        seats: Array.from({ length: b.seat_count }, (_, seat) => {
          const s = seatRows.get(seat);
          return {
            seat,
            team: teamOf(b.format, seat),
            player: s
              ? s.is_bot
                ? { name: 'Bot', avatar: null }
                : { name: s.first_name ?? '', avatar: publicAvatar(s.photo_url) }
              : null,
            isBot: s?.is_bot ?? false,
            isYou: viewer !== null && s?.user_id === viewer,
            clientSeed: s && full ? s.client_seed : null,
            total: nanoToTon(totals[seat]!),
          };
        }),
        creatorSeat,
        createdAt: b.created_at.toISOString(),
        expiresAt: new Date(b.expires_at).toISOString(),
        startedAt: b.started_at ? b.started_at.toISOString() : null,
        roundMs,
        now: now.toISOString(),
        revealedRounds: revealed,
        rolls: shown.map((r) => ({
          round: r.round,
          seat: r.seat,
          item: toApiItem({
            id: r.id,
            name: r.name,
            price_nano: r.price_nano,
            rarity: r.rarity,
            image_url: r.image_url,
          }),
          roll: Number(r.roll),
          totalWeight: Number(r.total_weight),
          awardedSeat: b.status === 'settled' ? r.awarded_seat : null,
        })),
        winnerTeam: b.status === 'settled' ? b.winner_team : null,
        tieRoll: b.status === 'settled' ? b.tie_roll : null,
        serverSeedHash: b.server_seed_hash,
        publicSeed: b.public_seed,
        serverSeed: b.status === 'settled' ? b.server_seed : null,
      },
    ];
  });
}

function publicAvatar(url: string | null): string | null {
  return url && url.length <= 1024 && /^https?:\/\//i.test(url) ? url : null;
}

export async function battleIdOf(db: Db, publicId: string): Promise<bigint> {
  return (await findBattleRow(db, publicId)).id;
}

/** The lobby: open battles and those being played, newest first. */
export async function lobbyIds(db: Db, limit = 50): Promise<bigint[]> {
  const rows = await db
    .selectFrom('battles')
    .select('id')
    .where('status', 'in', ['open', 'rolled'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** A player's battles, newest first. */
export async function historyIds(db: Db, userId: bigint, limit = 20): Promise<bigint[]> {
  const rows = await db
    .selectFrom('battle_seats')
    .select('battle_id')
    .where('user_id', '=', userId)
    .orderBy('battle_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.battle_id);
}
