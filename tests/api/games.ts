import { expect } from 'vitest';
import type { TestServer } from './harness.ts';
import { parseTon } from '../../contract/money.ts';

/** Helpers shared by the case and fairness API tests: read a player's whole game state from the database. */

export const TON = 1_000_000_000n;

/** an amount in TON (API text, or a short literal such as 0.5) → nanoTON, through the one parser */
export function nano(ton: string | number): bigint {
  return parseTon(String(ton));
}

export interface PlayerState {
  balanceNano: bigint;
  openingsCount: number;
  inventory: { item_id: string; quantity: number }[];
  openings: number;
  /** case openings won as prizes (a rank reward, a wheel segment) and wheel spins: each takes a nonce */
  freeOpenings: number;
  wheelSpins: number;
  ledger: { kind: string; delta_nano: bigint; balance_after_nano: bigint }[];
  seeds: { server_seed_hash: string; client_seed: string; nonce: number; active: boolean }[];
}

/** Everything a game request may change for one player, read straight from the database. */
export async function playerState(server: TestServer, userId: number): Promise<PlayerState> {
  const db = server.built.ctx.db;
  const id = BigInt(userId);
  const user = await db
    .selectFrom('users')
    .select(['balance_nano', 'openings_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const inventory = await db
    .selectFrom('inventory')
    .select(['item_id', 'quantity'])
    .where('user_id', '=', id)
    .orderBy('item_id')
    .execute();
  const openings = await db
    .selectFrom('openings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', id)
    .executeTakeFirstOrThrow();
  const countOf = async (table: 'free_openings' | 'wheel_spins') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const ledger = await db
    .selectFrom('ledger')
    .select(['kind', 'delta_nano', 'balance_after_nano'])
    .where('user_id', '=', id)
    .orderBy('id')
    .execute();
  const seeds = await db
    .selectFrom('fairness_seeds')
    .select(['server_seed_hash', 'client_seed', 'nonce', 'active'])
    .where('user_id', '=', id)
    .orderBy('id')
    .execute();
  return {
    balanceNano: user.balance_nano,
    openingsCount: user.openings_count,
    inventory,
    openings: Number(openings.n),
    freeOpenings: await countOf('free_openings'),
    wheelSpins: await countOf('wheel_spins'),
    ledger,
    seeds,
  };
}

/** The books balance: the ledger adds up to the balance, no balance went negative, items match openings. */
export function expectConsistent(state: PlayerState): void {
  const sum = state.ledger.reduce((s, r) => s + r.delta_nano, 0n);
  expect(sum).toBe(state.balanceNano);
  expect(state.balanceNano >= 0n).toBe(true);
  for (const r of state.ledger) expect(r.balance_after_nano >= 0n).toBe(true);
  expect(state.ledger.at(-1)?.balance_after_nano ?? 0n).toBe(state.balanceNano);
  const items = state.inventory.reduce((s, r) => s + r.quantity, 0);
  expect(items).toBe(state.openings + state.freeOpenings);
  expect(state.openingsCount).toBe(state.openings);
  const nonces = state.seeds.reduce((s, r) => s + r.nonce, 0);
  expect(nonces).toBe(state.openings + state.freeOpenings + state.wheelSpins);
  expect(state.seeds.filter((s) => s.active).length).toBeLessThanOrEqual(1);
}
