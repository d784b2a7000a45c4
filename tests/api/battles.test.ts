import { createHash, createHmac } from 'node:crypto';
import { compareTon, parseTon } from '../../contract/money.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Battle, BattleFormat, BattleSeatResponse, BattlesResponse } from '../../contract/battles.ts';
import type { Case } from '../../contract/cases.ts';
import type { ApiError } from '../../contract/common.ts';
import { createTestDatabase, setBalance, startServer, type TestServer } from './harness.ts';
import { TON } from './games.ts';

// Case battles end to end against the real server and database: seats and money, the payout, live state,
// refunds, and a check of every roll recomputed here from the public proof alone (own HMAC code below).

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The published algorithm, written out again from its description (contract/battles.ts, fair.ts). */
function independentRoll(serverSeed: string, message: string, n: number): number {
  const limit = Math.floor(2 ** 52 / n) * n;
  for (let round = 0; ; round++) {
    const text = round === 0 ? message : `${message}:${round}`;
    const digest = createHmac('sha256', serverSeed).update(text).digest('hex');
    for (let i = 0; i < 4; i++) {
      const v = parseInt(digest.slice(13 * i, 13 * i + 13), 16);
      if (v < limit) return v % n;
    }
  }
}

let nextUser = 7_100_000;
async function player(server: TestServer, balanceTon: bigint) {
  const id = nextUser++;
  const token = await server.login({ id, first_name: `P${id}` });
  await setBalance(server, id, balanceTon * TON);
  return { id, token };
}

async function balanceOf(server: TestServer, id: number): Promise<bigint> {
  const row = await server.built.ctx.db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', BigInt(id))
    .executeTakeFirstOrThrow();
  return row.balance_nano;
}

async function inventoryOf(server: TestServer, id: number): Promise<Map<string, number>> {
  const rows = await server.built.ctx.db
    .selectFrom('inventory')
    .select(['item_id', 'quantity'])
    .where('user_id', '=', BigInt(id))
    .where('quantity', '>', 0)
    .execute();
  return new Map(rows.map((r) => [r.item_id, r.quantity]));
}

async function waitForStatus(server: TestServer, id: string, status: Battle['status']): Promise<Battle> {
  for (let i = 0; i < 200; i++) {
    const res = await server.call<{ battle: Battle }>('GET', `/battles/${id}`);
    if (res.body.battle.status === status) return res.body.battle;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`battle ${id} never became ${status}`);
}

const nanoOf = (ton: string) => parseTon(ton);

/** Every roll recomputed from the proof; the winner and the awards checked against the rules. */
function verifyProof(battle: Battle, cases: Map<string, Case>): void {
  expect(battle.serverSeed).not.toBeNull();
  const seed = battle.serverSeed!;
  expect(sha256(seed)).toBe(battle.serverSeedHash);
  // the public seed from the seats' client seeds in join order: the creator first, then by join
  expect(battle.seats.every((s) => s.clientSeed !== null)).toBe(true);
  const seedsBySeat = battle.seats.map((s) => s.clientSeed!);
  const orders = permutations(seedsBySeat);
  expect(orders.some((o) => sha256(o.join(':')) === battle.publicSeed)).toBe(true);
  const totals = battle.seats.map(() => 0n);
  expect(battle.rolls).toHaveLength(battle.cases.length * battle.seats.length);
  for (const roll of battle.rolls) {
    const box = cases.get(battle.cases[roll.round - 1]!.id)!;
    const weights = box.items.map((e) => e.weight);
    const total = weights.reduce((s, w) => s + w, 0);
    const r = independentRoll(seed, `${battle.publicSeed}:${roll.round}:${roll.seat}`, total);
    expect(r).toBe(roll.roll);
    let upper = 0;
    const index = weights.findIndex((w) => r < (upper += w));
    expect(box.items[index]!.item.id).toBe(roll.item.id);
    totals[roll.seat]! += nanoOf(roll.item.price);
  }
  const team = (seat: number) => (battle.format === '2v2' ? Math.floor(seat / 2) : seat);
  const teamTotals = new Map<number, bigint>();
  totals.forEach((t, seat) => teamTotals.set(team(seat), (teamTotals.get(team(seat)) ?? 0n) + t));
  const values = [...teamTotals.values()];
  const best = values.reduce((a, b) => ((battle.mode === 'normal' ? b > a : b < a) ? b : a));
  const tied = [...teamTotals].filter(([, t]) => t === best).map(([k]) => k);
  if (tied.length === 1) {
    expect(battle.winnerTeam).toBe(tied[0]);
    expect(battle.tieRoll).toBeNull();
  } else {
    const tie = independentRoll(seed, `${battle.publicSeed}:tie:0`, tied.length);
    expect(battle.tieRoll).toBe(tie);
    expect(battle.winnerTeam).toBe(tied[tie]);
  }
  for (const roll of battle.rolls) expect(team(roll.awardedSeat!)).toBe(battle.winnerTeam);
}

function permutations<T>(list: T[]): T[][] {
  if (list.length <= 1) return [list];
  return list.flatMap((x, i) =>
    permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((p) => [x, ...p]),
  );
}

describe('case battles', () => {
  let server: TestServer;
  let cases: Map<string, Case>;
  const key = () => ({ 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` });

  beforeAll(async () => {
    server = await startServer({ env: { BATTLE_ROUND_MS: '0' } });
    cases = new Map(
      (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases.map((c) => [c.id, c] as const),
    );
  });
  afterAll(() => server.close());

  const playable = () => [...cases.values()].filter((c) => c.isActive && !c.isLocked && c.items.length > 0);

  for (const [format, seats] of [
    ['1v1', 2],
    ['1v1v1', 3],
    ['1v1v1v1', 4],
    ['2v2', 4],
  ] as [BattleFormat, number][]) {
    it(`plays a ${format} battle from creation to payout with exact balances`, async () => {
      const [a, b] = playable();
      const caseIds = [a!.id, b!.id, a!.id];
      const cost = caseIds.reduce((s, id) => s + nanoOf(cases.get(id)!.price), 0n);
      const players = [];
      for (let i = 0; i < seats; i++) players.push(await player(server, 100n));

      const created = await server.call<BattleSeatResponse>('POST', '/battles', {
        token: players[0]!.token,
        body: { format, mode: 'normal', caseIds, clientSeed: 'creator-seed' },
        headers: key(),
      });
      expect(created.status).toBe(200);
      const id = created.body.battle.id;
      expect(created.body.battle.status).toBe('open');
      expect(nanoOf(created.body.battle.cost)).toBe(cost);
      expect(created.body.battle.publicSeed).toBeNull();
      expect(nanoOf(created.body.balance)).toBe(100n * TON - cost);

      // the lobby lists it
      const lobby = await server.call<BattlesResponse>('GET', '/battles');
      expect(lobby.body.battles.some((x) => x.id === id)).toBe(true);

      for (const p of players.slice(1)) {
        const joined = await server.call<BattleSeatResponse>('POST', `/battles/${id}/join`, {
          token: p.token,
          body: {},
          headers: key(),
        });
        expect(joined.status).toBe(200);
        expect(nanoOf(joined.body.balance)).toBe(100n * TON - cost);
      }
      const battle = await waitForStatus(server, id, 'finished');
      verifyProof(battle, cases);

      // every item of the battle went to the winning team, nothing to the others; money moved once
      const expected = new Map<number, Map<string, number>>();
      for (const roll of battle.rolls) {
        const to = players[roll.awardedSeat!]!.id;
        const inv = expected.get(to) ?? new Map<string, number>();
        inv.set(roll.item.id, (inv.get(roll.item.id) ?? 0) + 1);
        expected.set(to, inv);
      }
      for (const p of players) {
        expect(await balanceOf(server, p.id)).toBe(100n * TON - cost);
        expect(await inventoryOf(server, p.id)).toEqual(expected.get(p.id) ?? new Map());
      }
      // the history of each player shows it
      const history = await server.call<BattlesResponse>('GET', '/battles/history', {
        token: players[1]!.token,
      });
      expect(history.body.battles[0]!.id).toBe(id);
      expect(history.body.battles[0]!.seats.filter((s) => s.isYou)).toHaveLength(1);
    });
  }

  it('plays crazy mode against house bots: the lowest total wins', async () => {
    const me = await player(server, 50n);
    const [box] = playable();
    const created = await server.call<BattleSeatResponse>('POST', '/battles', {
      token: me.token,
      body: { format: '1v1v1', mode: 'crazy', caseIds: [box!.id] },
    });
    expect(created.status).toBe(200);
    const id = created.body.battle.id;
    // only the creator may add bots
    const other = await player(server, 10n);
    const refused = await server.call<ApiError>('POST', `/battles/${id}/bots`, { token: other.token });
    expect(refused.status).toBe(403);
    const started = await server.call<{ battle: Battle }>('POST', `/battles/${id}/bots`, { token: me.token });
    expect(started.status).toBe(200);
    const battle = await waitForStatus(server, id, 'finished');
    expect(battle.seats.filter((s) => s.isBot)).toHaveLength(2);
    verifyProof(battle, cases);
    const mine = await inventoryOf(server, me.id);
    const won = battle.winnerTeam === 0;
    expect([...mine.values()].reduce((s, n) => s + n, 0)).toBe(won ? 3 : 0);
    expect(await balanceOf(server, me.id)).toBe(50n * TON - nanoOf(box!.price));
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const me = await player(server, 1n);
    const [box] = playable();
    const bad = [
      { format: '5v5', mode: 'normal', caseIds: [box!.id] },
      { format: '1v1', mode: 'normal', caseIds: [] },
      { format: '1v1', mode: 'normal', caseIds: Array(11).fill(box!.id) },
      { format: '1v1', mode: 'weird', caseIds: [box!.id] },
      { format: '1v1', mode: 'normal', caseIds: [box!.id], extra: 1 },
      { format: '1v1', mode: 'normal', caseIds: [box!.id], clientSeed: 'has space' },
    ];
    for (const body of bad) {
      const res = await server.call<ApiError>('POST', '/battles', { token: me.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBeTruthy();
    }
    const unknown = await server.call<ApiError>('POST', '/battles', {
      token: me.token,
      body: { format: '1v1', mode: 'normal', caseIds: ['no-such-case'] },
    });
    expect(unknown.status).toBe(404);
    const expensive = playable().sort((x, y) => compareTon(y.price, x.price))[0]!;
    const poor = await server.call<ApiError>('POST', '/battles', {
      token: me.token,
      body: { format: '1v1', mode: 'normal', caseIds: Array(10).fill(expensive.id) },
    });
    expect(poor.status).toBe(402);
    expect(await balanceOf(server, me.id)).toBe(1n * TON);
    const missing = await server.call<ApiError>('GET', '/battles/0123456789abcdef');
    expect(missing.status).toBe(404);
    const malformed = await server.call<ApiError>('GET', '/battles/nope');
    expect(malformed.status).toBe(400);
  });

  it('replays a create sent twice with one Idempotency-Key: one seat, one debit', async () => {
    const me = await player(server, 20n);
    const [box] = playable();
    const headers = key();
    const body = { format: '1v1', mode: 'normal', caseIds: [box!.id] };
    const first = await server.call<BattleSeatResponse>('POST', '/battles', {
      token: me.token,
      body,
      headers,
    });
    const again = await server.call<BattleSeatResponse>('POST', '/battles', {
      token: me.token,
      body,
      headers,
    });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.battle.id).toBe(first.body.battle.id);
    expect(await balanceOf(server, me.id)).toBe(20n * TON - nanoOf(box!.price));
  });

  it('sells a last seat once: of 50 players joining at once one gets it, the rest a 409 and lose nothing', async () => {
    const [box] = playable();
    const creator = await player(server, 10n);
    const created = await server.call<BattleSeatResponse>('POST', '/battles', {
      token: creator.token,
      body: { format: '1v1', mode: 'normal', caseIds: [box!.id] },
    });
    const id = created.body.battle.id;
    const crowd = [];
    for (let i = 0; i < 50; i++) crowd.push(await player(server, 10n));
    const answers = await Promise.all(
      crowd.map((p) =>
        server.call<ApiError>('POST', `/battles/${id}/join`, { token: p.token, body: {}, headers: key() }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.code).toBe('BATTLE_NOT_OPEN');
    }
    const price = nanoOf(box!.price);
    let paid = 0;
    for (const p of crowd) {
      const b = await balanceOf(server, p.id);
      expect([10n * TON, 10n * TON - price]).toContain(b);
      if (b !== 10n * TON) paid++;
    }
    expect(paid).toBe(1);
    const battle = await waitForStatus(server, id, 'finished');
    expect(battle.seats.every((s) => s.player !== null)).toBe(true);
  });

  it('refunds every seat when the creator cancels before the start, once', async () => {
    const [box] = playable();
    const creator = await player(server, 10n);
    const guest = await player(server, 10n);
    const created = await server.call<BattleSeatResponse>('POST', '/battles', {
      token: creator.token,
      body: { format: '1v1v1', mode: 'normal', caseIds: [box!.id, box!.id] },
    });
    const id = created.body.battle.id;
    await server.call('POST', `/battles/${id}/join`, { token: guest.token, body: {} });
    const price = 2n * nanoOf(box!.price);
    expect(await balanceOf(server, guest.id)).toBe(10n * TON - price);
    const notMine = await server.call<ApiError>('POST', `/battles/${id}/cancel`, { token: guest.token });
    expect(notMine.status).toBe(403);
    const cancelled = await server.call<{ battle: Battle; balance: number }>(
      'POST',
      `/battles/${id}/cancel`,
      {
        token: creator.token,
      },
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.battle.status).toBe('cancelled');
    const twice = await server.call<ApiError>('POST', `/battles/${id}/cancel`, { token: creator.token });
    expect(twice.status).toBe(409);
    const late = await server.call<ApiError>('POST', `/battles/${id}/join`, {
      token: (await player(server, 5n)).token,
      body: {},
    });
    expect(late.status).toBe(409);
    expect(await balanceOf(server, creator.id)).toBe(10n * TON);
    expect(await balanceOf(server, guest.id)).toBe(10n * TON);
  });
});

describe('battle timers and restarts', () => {
  it('cancels and refunds a battle nobody joins in time', async () => {
    const server = await startServer({ env: { BATTLE_LOBBY_TIMEOUT_SECONDS: '1', GAMES_SWEEP_MS: '100' } });
    try {
      const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
      const box = cases.find((c) => c.isActive && !c.isLocked)!;
      const me = await player(server, 10n);
      const created = await server.call<BattleSeatResponse>('POST', '/battles', {
        token: me.token,
        body: { format: '1v1', mode: 'normal', caseIds: [box.id] },
      });
      expect(await balanceOf(server, me.id)).toBe(10n * TON - nanoOf(box.price));
      await waitForStatus(server, created.body.battle.id, 'cancelled');
      expect(await balanceOf(server, me.id)).toBe(10n * TON);
      const refunds = await server.built.ctx.db
        .selectFrom('ledger')
        .select('delta_nano')
        .where('user_id', '=', BigInt(me.id))
        .where('kind', '=', 'battle_refund')
        .execute();
      expect(refunds).toEqual([{ delta_nano: nanoOf(box.price) }]);
    } finally {
      await server.close();
    }
  });

  it('pays a battle rolled before a stop exactly once, at the next start', async () => {
    const shared = await createTestDatabase();
    const env = { BATTLE_ROUND_MS: '1500', GAMES_SWEEP_MS: '60000' };
    try {
      const first = await startServer({ database: shared.database, env });
      const cases = (await first.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
      const box = cases.find((c) => c.isActive && !c.isLocked)!;
      const a = await player(first, 10n);
      const b = await player(first, 10n);
      const created = await first.call<BattleSeatResponse>('POST', '/battles', {
        token: a.token,
        body: { format: '1v1', mode: 'normal', caseIds: [box.id] },
      });
      const id = created.body.battle.id;
      const joined = await first.call<BattleSeatResponse>('POST', `/battles/${id}/join`, {
        token: b.token,
        body: {},
      });
      expect(joined.body.battle.status).toBe('running');
      await first.close(); // stopped after rolling, before paying
      const items = async (s: TestServer) =>
        [...(await inventoryOf(s, a.id)).values(), ...(await inventoryOf(s, b.id)).values()].reduce(
          (x, y) => x + y,
          0,
        );
      await new Promise((r) => setTimeout(r, 1600));
      const second = await startServer({ database: shared.database, env });
      expect(await items(second)).toBe(2);
      const battle = (await second.call<{ battle: Battle }>('GET', `/battles/${id}`)).body.battle;
      expect(battle.status).toBe('finished');
      await second.close();
      const third = await startServer({ database: shared.database, env });
      expect(await items(third)).toBe(2);
      expect(await balanceOf(third, a.id)).toBe(10n * TON - nanoOf(box.price));
      expect(await balanceOf(third, b.id)).toBe(10n * TON - nanoOf(box.price));
      await third.close();
    } finally {
      await shared.drop();
    }
  }, 120_000);
});
