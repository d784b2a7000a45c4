import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenCaseResponse, OpenMultipleResponse } from '../../contract/cases.ts';
import type { Achievement, ProfileResponse } from '../../contract/users.ts';
import { setBalance, startServer, type TestServer } from './harness.ts';
import { TON } from './games.ts';
import { addTestCase, books, expectLedgerBalances } from './holdings.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  // cases at the thresholds: an item worth exactly 5× the case, one worth just under, and a case of
  // exactly 50 TON (not "more than 50")
  await addTestCase(server, 'test_lucky', 1n * TON, { ton_stack: 1 }); // 5 TON item in a 1 TON case
  await addTestCase(server, 'test_almost_lucky', 1n * TON + 1n, { ton_stack: 1 });
  await addTestCase(server, 'test_fifty', 50n * TON, { lollipop: 1 });
});
afterAll(() => server.close());

async function profile(token: string): Promise<ProfileResponse> {
  const res = await server.call<ProfileResponse>('GET', '/users/profile', { token });
  expect(res.status).toBe(200);
  return res.body;
}

function achievement(p: ProfileResponse, id: Achievement['id']): Achievement {
  const found = p.achievements.find((a) => a.id === id);
  if (!found) throw new Error(`no achievement ${id}`);
  return found;
}

async function open(token: string, caseId: string): Promise<OpenCaseResponse> {
  const res = await server.call<OpenCaseResponse>('POST', '/cases/open', { token, body: { caseId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('the profile', () => {
  it('a new player: Level 1 Rookie with no progress and every achievement locked', async () => {
    const token = await server.login({ id: 830001 });
    expect(await profile(token)).toMatchObject({
      stats: { openingsCount: 0 },
      level: { level: 1, rank: 'Rookie', progress: 0 },
      achievements: [
        { id: 'first_case', unlocked: false, progress: 0 },
        { id: 'lucky_strike', unlocked: false },
        { id: 'case_collector', unlocked: false, progress: 0 },
        { id: 'high_roller', unlocked: false },
      ],
    });
  });

  it('First Case unlocks with one opening, Case Collector at 100; the rank follows the rank table', async () => {
    const id = 830002;
    const token = await server.login({ id });
    await setBalance(server, id, 60n * TON);

    await open(token, 'starter');
    let p = await profile(token);
    expect(p.stats.openingsCount).toBe(1);
    expect(achievement(p, 'first_case')).toEqual({ id: 'first_case', unlocked: true, progress: 1 });
    expect(achievement(p, 'case_collector')).toEqual({
      id: 'case_collector',
      unlocked: false,
      progress: 0.01,
    });
    // the rank table (RANK_TABLE default 1, 5, 15, 40, 100, 250): one opening is rank 2, on its way to 5
    expect(p.level).toEqual({ level: 2, rank: 'Explorer', progress: 0 });

    // 1 + 33 × 3 = 100 openings, all real: debited, rolled, recorded
    for (let i = 0; i < 32; i++) {
      const res = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 3 },
      });
      expect(res.status).toBe(200);
    }
    const twoMore = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 2 },
    });
    expect(twoMore.status).toBe(200);
    p = await profile(token);
    expect(p.stats.openingsCount).toBe(99);
    expect(achievement(p, 'case_collector')).toEqual({
      id: 'case_collector',
      unlocked: false,
      progress: 0.99,
    });

    await open(token, 'starter');
    p = await profile(token);
    expect(p.stats.openingsCount).toBe(100);
    expect(achievement(p, 'case_collector')).toEqual({ id: 'case_collector', unlocked: true, progress: 1 });
    expect(p.level).toEqual({ level: 6, rank: 'Treasure', progress: 0 });
    // starter cases cost 0.5 TON: neither high roller nor (with these items) necessarily lucky
    expect(achievement(p, 'high_roller').unlocked).toBe(false);

    const b = await books(server, id);
    expect(b.openings).toBe(100);
    expectLedgerBalances(b);
  });

  it('the last rank shows full progress', async () => {
    const id = 830003;
    const token = await server.login({ id });
    await server.built.ctx.db
      .updateTable('users')
      .set({ openings_count: 400 })
      .where('id', '=', BigInt(id))
      .execute();
    expect((await profile(token)).level).toEqual({ level: 7, rank: 'Epic Opener', progress: 1 });
  });

  it('Lucky Strike: an item worth at least 5× the price of its case', async () => {
    const id = 830004;
    const token = await server.login({ id });
    await setBalance(server, id, 5n * TON);

    expect((await open(token, 'test_almost_lucky')).item.id).toBe('ton_stack');
    let p = await profile(token);
    expect(achievement(p, 'lucky_strike')).toEqual({ id: 'lucky_strike', unlocked: false });

    expect((await open(token, 'test_lucky')).item.id).toBe('ton_stack');
    p = await profile(token);
    expect(achievement(p, 'lucky_strike')).toEqual({ id: 'lucky_strike', unlocked: true });
    expect(achievement(p, 'high_roller').unlocked).toBe(false);
  });

  it('High Roller: opening a case priced more than 50 TON', async () => {
    const id = 830005;
    const token = await server.login({ id });
    await setBalance(server, id, 130n * TON);

    await open(token, 'test_fifty');
    let p = await profile(token);
    expect(achievement(p, 'high_roller')).toEqual({ id: 'high_roller', unlocked: false });

    await open(token, 'royal'); // 75 TON
    p = await profile(token);
    expect(achievement(p, 'high_roller')).toEqual({ id: 'high_roller', unlocked: true });
    expect(p.stats.openingsCount).toBe(2);
    expectLedgerBalances(await books(server, id));
  });

  it('a refused opening counts for nothing', async () => {
    const id = 830006;
    const token = await server.login({ id });
    await setBalance(server, id, 10n * TON);
    const res = await server.call('POST', '/cases/open', { token, body: { caseId: 'royal' } });
    expect(res.status).toBe(402);
    const p = await profile(token);
    expect(p.stats.openingsCount).toBe(0);
    expect(p.achievements.every((a) => !a.unlocked)).toBe(true);
  });
});
