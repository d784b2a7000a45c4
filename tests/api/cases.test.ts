import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Case,
  CasesResponse,
  HistoryResponse,
  OpenCaseResponse,
  OpenMultipleResponse,
} from '../../contract/cases.ts';
import type { ApiError } from '../../contract/common.ts';
import { parseTon } from '../../contract/money.ts';
import { buildCatalogue, SEED_ITEMS } from '../../server/games/catalogue.ts';
import { seedCatalogue } from '../../server/games/seed.ts';
import { announceCatalogueChange } from '../../server/games/catalogue-cache.ts';
import { createTestDatabase, setBalance, startServer, type TestServer } from './harness.ts';
import { TON, expectConsistent, nano, playerState } from './games.ts';

describe('the case catalogue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('lists the seeded cases in position order, without a token', async () => {
    const res = await server.call<CasesResponse>('GET', '/cases');
    expect(res.status).toBe(200);
    const cases = res.body.cases;
    expect(cases.length).toBeGreaterThanOrEqual(8);
    const ids = cases.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['starter', 'premium', 'surfboard', 'legendary']));
    const positions = await server.built.ctx.db
      .selectFrom('cases')
      .select('id')
      .orderBy('position')
      .orderBy('id')
      .execute();
    expect(ids).toEqual(positions.map((p) => p.id));

    for (const c of cases) {
      expect(parseTon(c.price)).toBeGreaterThan(0n);
      expect(c.imageBase64).toBeNull();
      expect(c.imageUrl).toMatch(/^\/assets\//);
      expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
      expect(new Date(c.updatedAt).toISOString()).toBe(c.updatedAt);
      expect(c.items.length).toBeGreaterThan(0);
      const total = c.items.reduce((s, e) => s + e.weight, 0);
      let chance = 0;
      let evWeighted = 0n;
      for (const e of c.items) {
        expect(Number.isInteger(e.weight) && e.weight > 0).toBe(true);
        expect(e.dropChance).toBeCloseTo(e.weight / total, 12);
        expect(e.item.imageBase64).toBeNull();
        expect(['common', 'uncommon', 'rare', 'epic', 'legendary']).toContain(e.item.rarity);
        chance += e.dropChance;
        evWeighted += BigInt(e.weight) * parseTon(e.item.price);
      }
      expect(chance).toBeCloseTo(1, 9);
      // the weights are solved so that the expected drop is the configured share of the price
      const ev = Number(evWeighted / BigInt(total)) / Number(parseTon(c.price));
      expect(Math.abs(ev - server.config.rtp)).toBeLessThan(0.005);
      expect(new Set(c.items.map((e) => e.item.id)).size).toBe(c.items.length);
    }
    expect(cases.find((c) => c.id === 'legendary')?.isLocked).toBe(true);
    expect(cases.find((c) => c.id === 'starter')).toMatchObject({
      isActive: true,
      isLocked: false,
      price: '0.5',
    });
  });

  it('carries every case and item text in Russian beside the English', async () => {
    const cases = (await server.call<CasesResponse>('GET', '/cases')).body.cases;
    const cyrillic = /[А-Яа-яЁё]/;
    for (const c of cases) {
      expect(c.ru.name, c.id).toMatch(cyrillic);
      expect(c.ru.description, c.id).toMatch(cyrillic);
      for (const { item } of c.items) expect(item.ru?.name, item.id).toMatch(cyrillic);
    }
    expect(cases.find((c) => c.id === 'starter')).toMatchObject({
      name: 'Starter',
      ru: { name: 'Стартовый' },
    });
    const seeded = new Map(SEED_ITEMS.map((i) => [i.id, i.nameRu]));
    for (const { item } of cases.flatMap((c) => c.items)) expect(item.ru?.name).toBe(seeded.get(item.id));
    // an opening names its item in both languages too
    const token = await server.login({ id: 810101 });
    await setBalance(server, 810101, TON);
    const opened = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(opened.status).toBe(200);
    expect(opened.body.item.ru?.name).toBe(seeded.get(opened.body.item.id));
  });

  it('shows one case by id, and answers an unknown one with a JSON 404', async () => {
    const list = (await server.call<CasesResponse>('GET', '/cases')).body.cases;
    for (const id of ['starter', 'legendary']) {
      const res = await server.call<{ case: Case }>('GET', `/cases/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.case).toEqual(list.find((c) => c.id === id));
    }
    for (const id of ['nope', 'STARTER', 'starter%20']) {
      const res = await server.call<ApiError>('GET', `/cases/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'CASE_NOT_FOUND' });
    }
    const tooLong = await server.call<ApiError>('GET', `/cases/${'x'.repeat(65)}`);
    expect(tooLong).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });
});

describe('seeding the catalogue', () => {
  it('upserts: a restart with another RTP updates weights, an unchanged restart writes nothing', async () => {
    const shared = await createTestDatabase();
    try {
      const read = async (s: TestServer) => (await s.call<CasesResponse>('GET', '/cases')).body.cases;
      // two instances starting at once on one database both come up, with one catalogue
      const [a, b] = await Promise.all([
        startServer({ database: shared.database }),
        startServer({ database: shared.database }),
      ]);
      const first = await read(a);
      expect(await read(b)).toEqual(first);
      await Promise.all([a.close(), b.close()]);

      const same = await startServer({ database: shared.database });
      expect(await read(same)).toEqual(first);
      await same.close();

      const richer = await startServer({ database: shared.database, env: { RTP: '0.95' } });
      const changed = await read(richer);
      expect(changed.map((c) => c.id)).toEqual(first.map((c) => c.id));
      const starter = changed.find((c) => c.id === 'starter')!;
      const before = first.find((c) => c.id === 'starter')!;
      expect(starter.items.map((e) => e.weight)).not.toEqual(before.items.map((e) => e.weight));
      expect(starter.items.map((e) => e.weight)).toEqual(
        buildCatalogue(0.95)
          .find((c) => c.id === 'starter')!
          .items.map((e) => e.weight),
      );
      expect(starter.createdAt).toBe(before.createdAt);
      expect(starter.updatedAt > before.updatedAt).toBe(true);

      // a case the seed no longer lists is deactivated; an entry it no longer lists is removed
      const cases = buildCatalogue(0.95)
        .filter((c) => c.id !== 'premium')
        .map((c) => (c.id === 'starter' ? { ...c, items: c.items.slice(1) } : c));
      await seedCatalogue(richer.built.ctx.db, 0.95, { items: SEED_ITEMS, cases });
      await announceCatalogueChange(richer.built.ctx.bus, 'test reseed');
      const after = await read(richer);
      expect(after.find((c) => c.id === 'premium')?.isActive).toBe(false);
      expect(after.find((c) => c.id === 'starter')?.items.map((e) => e.item.id)).toEqual(
        starter.items.slice(1).map((e) => e.item.id),
      );
      await richer.close();
    } finally {
      await shared.drop();
    }
  });
});

describe('opening cases', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('opens one case: debits the price, adds the item, records the opening, the ledger and the count', async () => {
    const token = await server.login({ id: 810001 });
    await setBalance(server, 810001, 10n * TON);
    const starter = (await server.call<{ case: Case }>('GET', '/cases/starter')).body.case;

    const res = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(res.status).toBe(200);
    expect(res.body.balance).toBe('9.5');
    const entry = starter.items.find((e) => e.item.id === res.body.item.id);
    expect(entry?.item).toEqual(res.body.item);
    expect(res.body.proof).toMatchObject({
      nonce: 0,
      totalWeight: starter.items.reduce((s, e) => s + e.weight, 0),
    });
    expect(res.body.proof.roll).toBeLessThan(res.body.proof.totalWeight);

    const state = await playerState(server, 810001);
    expect(state.balanceNano).toBe(9_500_000_000n);
    expect(state.inventory).toEqual([{ item_id: res.body.item.id, quantity: 1 }]);
    expect(state.openings).toBe(1);
    expect(state.openingsCount).toBe(1);
    expect(state.ledger.at(-1)).toEqual({
      kind: 'case_open',
      delta_nano: -500_000_000n,
      balance_after_nano: 9_500_000_000n,
    });
    expect(state.seeds).toHaveLength(1);
    expect(state.seeds[0]).toMatchObject({ nonce: 1, active: true });
    expectConsistent(state);

    const row = await server.built.ctx.db
      .selectFrom('openings')
      .selectAll()
      .where('id', '=', BigInt(res.body.openingId))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: 810001n,
      case_id: 'starter',
      item_id: res.body.item.id,
      price_nano: 500_000_000n,
      nonce: 0,
      roll: BigInt(res.body.proof.roll),
      client_seed: res.body.proof.clientSeed,
      server_seed_hash: res.body.proof.serverSeedHash,
    });

    const profile = await server.call('GET', '/users/profile', { token });
    expect(profile.body).toMatchObject({ stats: { openingsCount: 1 } });
    expect((await server.call('GET', '/deposit/balance', { token })).body).toEqual({ balance: '9.5' });
  });

  it('opens several copies in one request: one debit, one nonce per copy, all items kept', async () => {
    const token = await server.login({ id: 810002 });
    await setBalance(server, 810002, 20n * TON);
    const res = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'surfboard', amount: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.balance).toBe('5');
    expect(res.body.results).toHaveLength(3);
    expect(res.body.results.map((r) => r.proof.nonce)).toEqual([0, 1, 2]);
    expect(new Set(res.body.results.map((r) => r.openingId)).size).toBe(3);

    const again = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 2 },
    });
    expect(again.status).toBe(200);
    expect(again.body.balance).toBe('4');
    expect(again.body.results.map((r) => r.proof.nonce)).toEqual([3, 4]);

    const state = await playerState(server, 810002);
    expect(state.balanceNano).toBe(4n * TON);
    expect(state.openings).toBe(5);
    expect(state.openingsCount).toBe(5);
    const opens = state.ledger.filter((r) => r.kind === 'case_open');
    expect(opens.map((r) => r.delta_nano)).toEqual([-15n * TON, -1n * TON]);
    const won = new Map<string, number>();
    for (const r of [...res.body.results, ...again.body.results])
      won.set(r.item.id, (won.get(r.item.id) ?? 0) + 1);
    expect(new Map(state.inventory.map((r) => [r.item_id, r.quantity]))).toEqual(won);
    expectConsistent(state);
  });

  it('refuses every bad request with 4xx JSON and changes nothing', async () => {
    const userId = 810003;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, nano(1.2));
    await server.call('GET', '/fairness', { token }); // the seed pair exists, so its nonce is compared too
    // one case made inactive directly in the database, besides the seeded inactive one
    await server.built.ctx.db
      .updateTable('cases')
      .set({ is_active: false })
      .where('id', '=', 'sweet')
      .execute();
    const before = await playerState(server, userId);

    const refusals: {
      path: string;
      body?: unknown;
      rawBody?: string;
      token?: string;
      status: number;
      code: string;
    }[] = [
      { path: '/cases/open', body: { caseId: 'nope' }, status: 404, code: 'CASE_NOT_FOUND' },
      {
        path: '/cases/open-multiple',
        body: { caseId: 'nope', amount: 1 },
        status: 404,
        code: 'CASE_NOT_FOUND',
      },
      { path: '/cases/open', body: { caseId: 'legendary' }, status: 403, code: 'CASE_LOCKED' },
      {
        path: '/cases/open-multiple',
        body: { caseId: 'legendary', amount: 1 },
        status: 403,
        code: 'CASE_LOCKED',
      },
      { path: '/cases/open', body: { caseId: 'sweet' }, status: 409, code: 'CASE_INACTIVE' },
      { path: '/cases/open', body: { caseId: 'holiday' }, status: 409, code: 'CASE_INACTIVE' },
      {
        path: '/cases/open-multiple',
        body: { caseId: 'sweet', amount: 2 },
        status: 409,
        code: 'CASE_INACTIVE',
      },
      // 1.2 TON: three starters cost 1.5, a surfboard 5
      {
        path: '/cases/open-multiple',
        body: { caseId: 'starter', amount: 3 },
        status: 402,
        code: 'INSUFFICIENT_BALANCE',
      },
      { path: '/cases/open', body: { caseId: 'surfboard' }, status: 402, code: 'INSUFFICIENT_BALANCE' },
      ...[0, 4, -1, 1.5, '2', null, true].map((amount) => ({
        path: '/cases/open-multiple',
        body: { caseId: 'starter', amount },
        status: 400,
        code: 'VALIDATION_ERROR',
      })),
      { path: '/cases/open-multiple', body: { caseId: 'starter' }, status: 400, code: 'VALIDATION_ERROR' },
      { path: '/cases/open', body: {}, status: 400, code: 'VALIDATION_ERROR' },
      { path: '/cases/open', body: { caseId: 42 }, status: 400, code: 'VALIDATION_ERROR' },
      { path: '/cases/open', body: { caseId: '' }, status: 400, code: 'VALIDATION_ERROR' },
      { path: '/cases/open', body: { caseId: 'starter', amount: 2 }, status: 400, code: 'VALIDATION_ERROR' },
      {
        path: '/cases/open-multiple',
        body: { caseId: 'starter', amount: 1, free: true },
        status: 400,
        code: 'VALIDATION_ERROR',
      },
      { path: '/cases/open', rawBody: '{"caseId": ', status: 400, code: 'INVALID_JSON' },
      { path: '/cases/open', body: { caseId: 'starter' }, token: '', status: 401, code: 'TOKEN_MISSING' },
      {
        path: '/cases/open-multiple',
        body: { caseId: 'starter', amount: 1 },
        token: 'not.a.token',
        status: 401,
        code: 'TOKEN_INVALID',
      },
    ];
    for (const r of refusals) {
      const res = await server.call<ApiError>('POST', r.path, {
        token: r.token ?? token,
        ...(r.rawBody !== undefined ? { rawBody: r.rawBody } : { body: r.body }),
      });
      const label = `${r.path} ${JSON.stringify(r.body ?? r.rawBody)}`;
      expect(res.status, label).toBe(r.status);
      expect(res.body, label).toMatchObject({ statusCode: r.status, code: r.code });
      expect(typeof res.body.message, label).toBe('string');
      expect(await playerState(server, userId), label).toEqual(before);
    }

    // with exactly enough, the same request goes through
    const ok = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 2 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.balance).toBe('0.2');
    expectConsistent(await playerState(server, userId));
    await server.built.ctx.db
      .updateTable('cases')
      .set({ is_active: true })
      .where('id', '=', 'sweet')
      .execute();
  });

  it('lets exactly as many of 50 parallel opens through as the balance pays for', async () => {
    const userId = 810004;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 7n * nano(0.5));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.call<OpenCaseResponse & ApiError>('POST', '/cases/open', {
          token,
          body: { caseId: 'starter' },
        }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(7);
    expect(refused).toHaveLength(43);
    for (const r of refused) expect(r).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_BALANCE' } });
    expect(ok.map((a) => a.body.proof.nonce).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ok.map((a) => a.body.balance)).toContain('0');

    const state = await playerState(server, userId);
    expect(state.balanceNano).toBe(0n);
    expect(state.openings).toBe(7);
    expect(state.ledger.filter((r) => r.kind === 'case_open')).toHaveLength(7);
    expectConsistent(state);
  });

  it('pages the history: newest first, 20 by default, with proofs; for the signed-in player only', async () => {
    const userId = 810005;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 20n * TON);
    for (let i = 0; i < 8; i++) {
      const r = await server.call('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 3 },
      });
      expect(r.status).toBe(200);
    }
    expect((await server.call('POST', '/cases/open', { token, body: { caseId: 'flowers' } })).status).toBe(
      200,
    );

    const first = await server.call<HistoryResponse>('GET', '/cases/history', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, limit: 20, total: 25 });
    expect(first.body.openings).toHaveLength(20);
    const newest = first.body.openings[0]!;
    expect(newest.case).toEqual({ id: 'flowers', name: 'Flower Shop', price: '2.5' });
    expect(newest.proof.nonce).toBe(24);
    expect(newest.serverSeed).toBeNull();
    expect(new Date(newest.createdAt).toISOString()).toBe(newest.createdAt);

    const second = await server.call<HistoryResponse>('GET', '/cases/history?page=2', { token });
    expect(second.body).toMatchObject({ page: 2, limit: 20, total: 25 });
    expect(second.body.openings).toHaveLength(5);
    const ids = [...first.body.openings, ...second.body.openings].map((o) => Number(o.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(25);
    expect([...first.body.openings, ...second.body.openings].map((o) => o.proof.nonce)).toEqual(
      Array.from({ length: 25 }, (_, i) => 24 - i),
    );

    const small = await server.call<HistoryResponse>('GET', '/cases/history?page=3&limit=7', { token });
    expect(small.body).toMatchObject({ page: 3, limit: 7, total: 25 });
    expect(small.body.openings.map((o) => o.proof.nonce)).toEqual([10, 9, 8, 7, 6, 5, 4]);
    const beyond = await server.call<HistoryResponse>('GET', '/cases/history?page=9', { token });
    expect(beyond.body).toMatchObject({ page: 9, total: 25, openings: [] });

    for (const query of ['page=0', 'limit=0', 'limit=101', 'page=x', 'page=1.5', 'sort=asc']) {
      const bad = await server.call('GET', `/cases/history?${query}`, { token });
      expect(bad, query).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    }
    expect(await server.call('GET', '/cases/history')).toMatchObject({
      status: 401,
      body: { code: 'TOKEN_MISSING' },
    });
    const other = await server.login({ id: 810006 });
    expect((await server.call('GET', '/cases/history', { token: other })).body).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      openings: [],
    });
  });
});
