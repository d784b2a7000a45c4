import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Case,
  FairnessState,
  HistoryResponse,
  OpenCaseResponse,
  OpenMultipleResponse,
  RotateResponse,
} from '../../contract/cases.ts';
import type { ApiError } from '../../contract/common.ts';
import { pickWeighted, rollInt } from '../../server/games/fair.ts';
import { setBalance, startServer, type TestServer } from './harness.ts';
import { TON, expectConsistent, playerState } from './games.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('provably fair rolls', () => {
  let server: TestServer;
  let weightsOf: Map<string, { weights: number[]; itemIds: string[] }>;

  beforeAll(async () => {
    server = await startServer();
    const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
    weightsOf = new Map(
      cases.map((c) => [
        c.id,
        { weights: c.items.map((e) => e.weight), itemIds: c.items.map((e) => e.item.id) },
      ]),
    );
  });
  afterAll(() => server.close());

  /** Recomputes a history entry from its revealed seed: the roll and the item it picks. */
  function verify(entry: HistoryResponse['openings'][number]): void {
    expect(entry.serverSeed).not.toBeNull();
    const seed = entry.serverSeed!;
    expect(sha256(seed)).toBe(entry.proof.serverSeedHash);
    const { weights, itemIds } = weightsOf.get(entry.case.id)!;
    expect(entry.proof.totalWeight).toBe(weights.reduce((s, w) => s + w, 0));
    const roll = rollInt(seed, entry.proof.clientSeed, entry.proof.nonce, entry.proof.totalWeight);
    expect(roll).toBe(entry.proof.roll);
    expect(itemIds[pickWeighted(weights, roll)]).toBe(entry.item.id);
  }

  const history = async (token: string) =>
    (await server.call<HistoryResponse>('GET', '/cases/history?limit=100', { token })).body.openings;

  it('needs a token', async () => {
    for (const [method, path] of [
      ['GET', '/fairness'],
      ['PUT', '/fairness/client-seed'],
      ['POST', '/fairness/rotate'],
    ] as const) {
      const res = await server.call<ApiError>(
        method,
        path,
        method === 'PUT' ? { body: { clientSeed: 'abc' } } : {},
      );
      expect(res, path).toMatchObject({ status: 401, body: { statusCode: 401, code: 'TOKEN_MISSING' } });
    }
  });

  it('creates one seed pair on first look, even when asked many times at once', async () => {
    const token = await server.login({ id: 820001 });
    const states = await Promise.all(
      Array.from({ length: 10 }, () => server.call<FairnessState>('GET', '/fairness', { token })),
    );
    for (const s of states) expect(s.status).toBe(200);
    const first = states[0]!.body;
    expect(first.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.clientSeed).toMatch(/^[0-9a-f]{16}$/);
    expect(first.nonce).toBe(0);
    for (const s of states) expect(s.body).toEqual(first);
    expect((await playerState(server, 820001)).seeds).toHaveLength(1);
  });

  it('counts one nonce per copy, reveals on rotate a seed whose hash was shown before, and every roll verifies', async () => {
    const userId = 820002;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 50n * TON);
    const shown = (await server.call<FairnessState>('GET', '/fairness', { token })).body;

    const one = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'premium' },
    });
    expect(one.body.proof).toMatchObject({
      serverSeedHash: shown.serverSeedHash,
      clientSeed: shown.clientSeed,
      nonce: 0,
    });
    expect((await server.call<FairnessState>('GET', '/fairness', { token })).body.nonce).toBe(1);
    const three = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 3 },
    });
    expect(three.body.results.map((r) => r.proof.nonce)).toEqual([1, 2, 3]);
    expect((await server.call<FairnessState>('GET', '/fairness', { token })).body).toEqual({
      ...shown,
      nonce: 4,
    });

    // before the rotation nothing reveals the seed
    for (const entry of await history(token)) expect(entry.serverSeed).toBeNull();

    const rotated = await server.call<RotateResponse>('POST', '/fairness/rotate', { token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.revealed.serverSeedHash).toBe(shown.serverSeedHash);
    expect(sha256(rotated.body.revealed.serverSeed)).toBe(shown.serverSeedHash);
    expect(rotated.body.current).toMatchObject({ clientSeed: shown.clientSeed, nonce: 0 });
    expect(rotated.body.current.serverSeedHash).not.toBe(shown.serverSeedHash);
    expect((await server.call('GET', '/fairness', { token })).body).toEqual(rotated.body.current);

    const after = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'surfboard' },
    });
    expect(after.body.proof).toMatchObject({ serverSeedHash: rotated.body.current.serverSeedHash, nonce: 0 });

    const entries = await history(token);
    expect(entries).toHaveLength(5);
    expect(entries[0]!.serverSeed).toBeNull(); // made with the new, still secret seed
    for (const entry of entries.slice(1)) {
      expect(entry.serverSeed).toBe(rotated.body.revealed.serverSeed);
      verify(entry);
    }
    // the answers at opening time carried the same proofs the history shows
    const proofs = [...three.body.results.map((r) => r.proof).reverse(), one.body.proof];
    expect(entries.slice(1).map((e) => e.proof)).toEqual(proofs);
    expectConsistent(await playerState(server, userId));
  });

  it('applies a new client seed from the next roll on', async () => {
    const userId = 820003;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 10n * TON);
    const initial = (await server.call<FairnessState>('GET', '/fairness', { token })).body;

    // an unused pair keeps its server seed and takes the new client seed
    const set = await server.call<FairnessState>('PUT', '/fairness/client-seed', {
      token,
      body: { clientSeed: 'my-lucky-seed' },
    });
    expect(set).toEqual({
      status: 200,
      body: { serverSeedHash: initial.serverSeedHash, clientSeed: 'my-lucky-seed', nonce: 0 },
    });
    const first = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(first.body.proof).toMatchObject({
      serverSeedHash: initial.serverSeedHash,
      clientSeed: 'my-lucky-seed',
      nonce: 0,
    });
    const second = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(second.body.proof).toMatchObject({ clientSeed: 'my-lucky-seed', nonce: 1 });

    // a used pair is revealed and replaced, so no (seed, client seed, nonce) is ever rolled twice
    const changed = await server.call<FairnessState>('PUT', '/fairness/client-seed', {
      token,
      body: { clientSeed: 'Another~Seed!42' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ clientSeed: 'Another~Seed!42', nonce: 0 });
    expect(changed.body.serverSeedHash).not.toBe(initial.serverSeedHash);
    const third = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(third.body.proof).toMatchObject({
      serverSeedHash: changed.body.serverSeedHash,
      clientSeed: 'Another~Seed!42',
      nonce: 0,
    });

    const entries = await history(token);
    for (const entry of entries.slice(1)) {
      expect(sha256(entry.serverSeed!)).toBe(initial.serverSeedHash);
      verify(entry);
    }
    const rotated = await server.call<RotateResponse>('POST', '/fairness/rotate', { token });
    expect(rotated.body.revealed.serverSeedHash).toBe(changed.body.serverSeedHash);
    expect(rotated.body.current.clientSeed).toBe('Another~Seed!42');
    verify((await history(token))[0]!);
    expectConsistent(await playerState(server, userId));
  });

  it('refuses a malformed client seed and changes nothing', async () => {
    const userId = 820004;
    const token = await server.login({ id: userId });
    await server.call('GET', '/fairness', { token });
    const before = await playerState(server, userId);
    for (const body of [
      {},
      { clientSeed: '' },
      { clientSeed: 'x'.repeat(65) },
      { clientSeed: 'has space' },
      { clientSeed: 'тест' },
      { clientSeed: 42 },
      { clientSeed: 'ok', nonce: 0 },
    ]) {
      const res = await server.call<ApiError>('PUT', '/fairness/client-seed', { token, body });
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
      expect(await playerState(server, userId)).toEqual(before);
    }
  });

  it('keeps nonces unique and proofs valid while rotations race with openings', async () => {
    const userId = 820005;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 0
          ? server.call('POST', '/fairness/rotate', { token })
          : server.call('POST', '/cases/open-multiple', { token, body: { caseId: 'starter', amount: 2 } }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    await server.call('POST', '/fairness/rotate', { token });
    const entries = await history(token);
    expect(entries).toHaveLength(32);
    const seen = new Set(entries.map((e) => `${e.proof.serverSeedHash}:${e.proof.nonce}`));
    expect(seen.size).toBe(32);
    for (const entry of entries) verify(entry);
    const state = await playerState(server, userId);
    expect(state.seeds.filter((s) => s.active)).toHaveLength(1);
    expectConsistent(state);
  });
});
