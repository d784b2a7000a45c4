import { parseTon, formatTon } from '../../contract/money.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BattleSeatResponse } from '../../contract/battles.ts';
import type { Case } from '../../contract/cases.ts';
import type { RaceResponse } from '../../contract/race.ts';
import { createTestDatabase, setBalance, startServer, type TestServer } from './harness.ts';
import { TON } from './games.ts';

// The wager race against the real server: points come from the books, and prizes are paid once per race
// and place, also across a restart.

const WAGER_KINDS = ['case_open', 'battle_seat', 'battle_refund'];
const nanoOf = (ton: string) => parseTon(ton);

let nextUser = 7_300_000;
async function player(server: TestServer, name: string, balanceTon: bigint) {
  const id = nextUser++;
  const token = await server.login({ id, first_name: name });
  await setBalance(server, id, balanceTon * TON);
  return { id, token };
}

/** The wagers of one player straight from the ledger (and upgrade stakes), in nanoTON. */
async function ledgerWagers(server: TestServer, id: number, from?: Date, to?: Date): Promise<bigint> {
  const db = server.built.ctx.db;
  let q = db
    .selectFrom('ledger')
    .select(['delta_nano', 'created_at'])
    .where('user_id', '=', BigInt(id))
    .where('kind', 'in', WAGER_KINDS);
  if (from && to) q = q.where('created_at', '>=', from).where('created_at', '<', to);
  const rows = await q.execute();
  const stakes = await db
    .selectFrom('upgrades')
    .select('stake_price_nano')
    .where('user_id', '=', BigInt(id))
    .execute();
  return rows.reduce((s, r) => s - r.delta_nano, 0n) + stakes.reduce((s, r) => s + r.stake_price_nano, 0n);
}

async function wager(server: TestServer, token: string, box: Case, opens: number, battles: number) {
  for (let i = 0; i < opens; i++) {
    const res = await server.call('POST', '/cases/open', { token, body: { caseId: box.id } });
    expect(res.status).toBe(200);
  }
  for (let i = 0; i < battles; i++) {
    const res = await server.call<BattleSeatResponse>('POST', '/battles', {
      token,
      body: { format: '1v1', mode: 'normal', caseIds: [box.id, box.id] },
    });
    expect(res.status).toBe(200);
    if (i === 0) {
      // a cancelled battle's seat is refunded and does not count
      const cancel = await server.call('POST', `/battles/${res.body.battle.id}/cancel`, { token });
      expect(cancel.status).toBe(200);
    }
  }
}

describe('the wager race', () => {
  let server: TestServer;
  let box: Case;
  beforeAll(async () => {
    server = await startServer();
    const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
    box = cases.find((c) => c.isActive && !c.isLocked && c.items.length > 0)!;
  });
  afterAll(() => server.close());

  it('counts the TON wagered in the books and shows each player their place', async () => {
    const big = await player(server, 'Big', 100n);
    const small = await player(server, 'Small', 100n);
    await wager(server, big.token, box, 3, 2);
    await wager(server, small.token, box, 1, 0);

    const bigPoints = await ledgerWagers(server, big.id);
    const smallPoints = await ledgerWagers(server, small.id);
    expect(bigPoints).toBe(5n * nanoOf(box.price)); // 3 openings + one battle kept (2 cases)
    expect(smallPoints).toBe(nanoOf(box.price));

    const mine = await server.call<RaceResponse>('GET', '/race', { token: big.token });
    expect(mine.status).toBe(200);
    expect(nanoOf(mine.body.you!.points)).toBe(bigPoints);
    expect(mine.body.you!.place).toBe(1);
    const theirs = await server.call<RaceResponse>('GET', '/race', { token: small.token });
    expect(theirs.body.you).toEqual({ place: 2, points: box.price });
    expect(theirs.body.leaderboard.slice(0, 2).map((e) => [e.place, e.name, nanoOf(e.points)])).toEqual([
      [1, 'Big', bigPoints],
      [2, 'Small', smallPoints],
    ]);
    expect(theirs.body.leaderboard[0]!.prize).toBe(theirs.body.prizes[0]);
    // a real countdown: the race ends a day after it starts and the server's clock lies inside it
    const start = Date.parse(mine.body.startsAt);
    const end = Date.parse(mine.body.endsAt);
    expect(end - start).toBe(86_400_000);
    expect(Date.parse(mine.body.now)).toBeGreaterThanOrEqual(start);
    expect(Date.parse(mine.body.now)).toBeLessThan(end);
    // without a token there is no own place
    const anonymous = await server.call<RaceResponse>('GET', '/race');
    expect(anonymous.body.you).toBeNull();
    // someone who wagered nothing has no place yet
    const idle = await player(server, 'Idle', 1n);
    const none = await server.call<RaceResponse>('GET', '/race', { token: idle.token });
    expect(none.body.you).toEqual({ place: null, points: formatTon(0n) });
  });
});

describe('race prizes', () => {
  it('credits each ended race’s prizes once, also across a restart', async () => {
    const shared = await createTestDatabase();
    const period = 4;
    const env = { RACE_PERIOD_SECONDS: String(period), RACE_PRIZES_TON: '2,1', GAMES_SWEEP_MS: '200' };
    try {
      const first = await startServer({ database: shared.database, env });
      const cases = (await first.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
      const box = cases.find((c) => c.isActive && !c.isLocked && c.items.length > 0)!;
      const a = await player(first, 'A', 50n);
      const b = await player(first, 'B', 50n);
      await wager(first, a.token, box, 2, 0);
      await wager(first, b.token, box, 1, 0);
      const db = first.built.ctx.db;
      const wagers = await db
        .selectFrom('ledger')
        .select(['created_at'])
        .where('kind', 'in', WAGER_KINDS)
        .execute();
      const races = [...new Set(wagers.map((w) => Math.floor(w.created_at.getTime() / (period * 1000))))];
      const lastRace = Math.max(...races);
      // wait for the last race with wagers to end and a sweep to pay it
      const paidBy = (lastRace + 1) * period * 1000 + 1500;
      await new Promise((r) => setTimeout(r, Math.max(0, paidBy - Date.now())));

      const prizes = async (s: TestServer) =>
        s.built.ctx.db
          .selectFrom('ledger')
          .select(['user_id', 'delta_nano', 'external_id'])
          .where('kind', '=', 'race_prize')
          .orderBy('external_id')
          .execute();
      // what each race owes, from the books
      const expected: { user_id: bigint; delta_nano: bigint; external_id: string }[] = [];
      for (const k of races) {
        const from = new Date(k * period * 1000);
        const to = new Date((k + 1) * period * 1000);
        const standing = [
          { id: a.id, points: await ledgerWagers(first, a.id, from, to) },
          { id: b.id, points: await ledgerWagers(first, b.id, from, to) },
        ]
          .filter((p) => p.points > 0n)
          .sort((x, y) => (x.points !== y.points ? (y.points > x.points ? 1 : -1) : x.id - y.id));
        standing.forEach((p, i) =>
          expected.push({
            user_id: BigInt(p.id),
            delta_nano: [2n, 1n][i]! * TON,
            external_id: `race:${period}:${k}:${i + 1}`,
          }),
        );
      }
      expected.sort((x, y) => (x.external_id < y.external_id ? -1 : 1));
      expect(await prizes(first)).toEqual(expected);
      await first.close();

      const second = await startServer({ database: shared.database, env });
      await new Promise((r) => setTimeout(r, 600)); // a few sweeps
      expect(await prizes(second)).toEqual(expected);
      const balance = async (id: number) =>
        (
          await second.built.ctx.db
            .selectFrom('users')
            .select('balance_nano')
            .where('id', '=', BigInt(id))
            .executeTakeFirstOrThrow()
        ).balance_nano;
      const prizeOf = (id: number) =>
        expected.filter((e) => e.user_id === BigInt(id)).reduce((s, e) => s + e.delta_nano, 0n);
      expect(await balance(a.id)).toBe(50n * TON - 2n * nanoOf(box.price) + prizeOf(a.id));
      expect(await balance(b.id)).toBe(50n * TON - nanoOf(box.price) + prizeOf(b.id));
      await second.close();
    } finally {
      await shared.drop();
    }
  }, 120_000);
});
