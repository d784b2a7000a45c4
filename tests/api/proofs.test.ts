import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Battle, BattleSeatResponse } from '../../contract/battles.ts';
import type {
  CaseResponse,
  FairnessState,
  OpenMultipleResponse,
  RotateResponse,
  SetClientSeedResponse,
} from '../../contract/cases.ts';
import type { ApiError } from '../../contract/common.ts';
import type {
  BetHistoryResponse,
  CaseBetProof,
  UpgradeBetProof,
  WeightTable,
} from '../../contract/fairness.ts';
import type { UpgradeConfigResponse, UpgradeRollResponse } from '../../contract/upgrade.ts';
import { seedCatalogue } from '../../server/games/seed.ts';
import { announceCatalogueChange } from '../../server/games/catalogue-cache.ts';
import { sha256, verifyCase, verifyUpgrade } from '../support/independent-verifier.ts';
import { setBalance, startServer, type TestServer } from './harness.ts';
import { grantItems } from './holdings.ts';

// Proofs that last and public verification: every bet has a public id whose proof anyone can read
// without signing in, openings keep the weight table they were rolled against, and an independent
// implementation of the README's algorithm agrees with every answer.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const TON = 1_000_000_000n;

async function starterWeights(): Promise<number[]> {
  const res = await server.call<CaseResponse>('GET', '/cases/starter');
  return res.body.case.items.map((e) => e.weight);
}

describe('public proofs', () => {
  it('a past opening still verifies after an RTP change, from its public id alone', async () => {
    const userId = 850001;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const opened = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 3 },
    });
    expect(opened.status).toBe(200);
    const weightsBefore = await starterWeights();

    // before the seed is revealed the proof is public but holds no server seed
    const early = await server.call<CaseBetProof>('GET', `/fairness/bets/${opened.body.results[0]!.betId}`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ kind: 'case', serverSeed: null });

    const rotated = await server.call<RotateResponse>('POST', '/fairness/rotate', { token });
    // the operator changes the RTP: the catalogue is seeded again and the starter weights change
    await seedCatalogue(server.built.ctx.db, 0.7);
    await announceCatalogueChange(server.built.ctx.bus, 'RTP changed');
    expect(await starterWeights()).not.toEqual(weightsBefore);

    for (const result of opened.body.results) {
      // no token: anyone can read it
      const res = await server.call<CaseBetProof>('GET', `/fairness/bets/${result.betId}`);
      expect(res.status).toBe(200);
      const proof = res.body;
      expect(proof).toMatchObject({
        kind: 'case',
        betId: result.betId,
        serverSeed: rotated.body.revealed.serverSeed,
        serverSeedHash: result.proof.serverSeedHash,
        nonce: result.proof.nonce,
        item: { id: result.item.id },
      });
      expect(sha256(proof.serverSeed!)).toBe(proof.serverSeedHash);
      const table = proof.weightTable!;
      expect(table.hash).toBe(result.proof.weightTableHash);
      // the table is the one rolled against, not today's
      expect(table.entries.map((e) => e.weight)).toEqual(weightsBefore);
      const check = verifyCase(proof.serverSeed!, proof.clientSeed, proof.nonce, table.text);
      expect(check.tableHash).toBe(table.hash);
      expect(check.itemId).toBe(result.item.id);
      expect(Number(check.roll)).toBe(result.proof.roll);
      expect(Number(check.total)).toBe(result.proof.totalWeight);
      // the table is also served by its hash
      const byHash = await server.call<WeightTable>('GET', `/fairness/tables/${table.hash}`);
      expect(byHash).toEqual({ status: 200, body: table });
    }
    await seedCatalogue(server.built.ctx.db, server.config.rtp);
  });

  it('an upgrade verifies from its public id, with price-based odds', async () => {
    const userId = 850002;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { cake: 6 });
    const { baseChance } = (await server.call<UpgradeConfigResponse>('GET', '/upgrade/config')).body;
    const answers: UpgradeRollResponse[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.call<UpgradeRollResponse>('POST', '/upgrade/roll', {
        token,
        body: { baseChance, coef: 3, itemId: 'cake' },
      });
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    const rotated = await server.call<RotateResponse>('POST', '/fairness/rotate', { token });
    for (const a of answers) {
      const res = await server.call<UpgradeBetProof>('GET', `/fairness/bets/${a.betId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        kind: 'upgrade',
        serverSeed: rotated.body.revealed.serverSeed,
        success: a.success,
        rolled: a.rolled,
        chanceNumerator: a.proof.chanceNumerator,
        chanceDenominator: a.proof.chanceDenominator,
      });
      const p = res.body;
      const check = verifyUpgrade(
        p.serverSeed!,
        p.clientSeed,
        p.nonce,
        p.chanceNumerator,
        p.chanceDenominator,
      );
      expect(check.success).toBe(a.success);
      expect(Number(check.roll) / 2 ** 52).toBe(a.rolled);
      expect(Math.abs(a.chance * Number(a.target.price) - baseChance * Number(a.stake.price))).toBeLessThan(
        1e-9,
      );
    }
  });

  it('pages through all of a player’s bets, openings and upgrades together', async () => {
    const userId = 850003;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    await grantItems(server, userId, { cake: 2 });
    const { baseChance } = (await server.call<UpgradeConfigResponse>('GET', '/upgrade/config')).body;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 1 },
      });
      ids.push(o.body.results[0]!.betId);
      if (i < 2) {
        const u = await server.call<UpgradeRollResponse>('POST', '/upgrade/roll', {
          token,
          body: { baseChance, coef: 2, itemId: 'cake' },
        });
        ids.push(u.body.betId);
      }
    }
    const seen: BetHistoryResponse['bets'] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await server.call<BetHistoryResponse>('GET', `/fairness/history?page=${page}&limit=3`, {
        token,
      });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
      seen.push(...res.body.bets);
    }
    expect(seen.map((b) => b.betId)).toEqual([...ids].reverse());
    expect(seen.filter((b) => b.kind === 'upgrade')).toHaveLength(2);
    expect((await server.call('GET', '/fairness/history')).status).toBe(401);
  });

  it('answers unknown and malformed ids with a JSON error, and hides nothing it should show', async () => {
    const unknown = await server.call<ApiError>('GET', '/fairness/bets/AAAAAAAAAAAA');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'BET_NOT_FOUND' } });
    const bad = await server.call<ApiError>('GET', '/fairness/bets/' + encodeURIComponent('1 OR 1=1'));
    expect(bad.status).toBe(400);
    const table = await server.call<ApiError>('GET', `/fairness/tables/${'0'.repeat(64)}`);
    expect(table).toMatchObject({ status: 404, body: { code: 'TABLE_NOT_FOUND' } });
    expect((await server.call('GET', '/fairness/tables/nothex')).status).toBe(400);
  });
});

describe('the bet history of every game and the seed a new client seed retires', () => {
  let games: TestServer;
  beforeAll(async () => {
    games = await startServer({ env: { BATTLE_ROUND_MS: '0', GAMES_SWEEP_MS: '100' } });
  });
  afterAll(async () => {
    await games.close();
  });

  it('lists openings, upgrades and battle seats together, each with what its proof needs', async () => {
    const userId = 850101;
    const token = await games.login({ id: userId });
    await setBalance(games, userId, 100n * TON);
    await grantItems(games, userId, { cake: 1 });
    const opened = await games.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 1 },
    });
    const { baseChance } = (await games.call<UpgradeConfigResponse>('GET', '/upgrade/config')).body;
    const upgraded = await games.call<UpgradeRollResponse>('POST', '/upgrade/roll', {
      token,
      body: { baseChance, coef: 2, itemId: 'cake' },
    });
    const created = await games.call<BattleSeatResponse>('POST', '/battles', {
      token,
      body: { format: '1v1', mode: 'normal', caseIds: ['starter', 'starter'] },
    });
    expect(created.status).toBe(200);
    const battleId = created.body.battle.id;
    expect((await games.call('POST', `/battles/${battleId}/bots`, { token })).status).toBe(200);
    let battle: Battle | undefined;
    for (let i = 0; i < 200 && battle?.status !== 'finished'; i++) {
      battle = (await games.call<{ battle: Battle }>('GET', `/battles/${battleId}`, { token })).body.battle;
      if (battle.status !== 'finished') await new Promise((r) => setTimeout(r, 25));
    }
    expect(battle?.status).toBe('finished');

    const res = await games.call<BetHistoryResponse>('GET', '/fairness/history', { token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.bets.map((b) => [b.kind, b.betId])).toEqual([
      ['battle', battleId],
      ['upgrade', upgraded.body.betId],
      ['case', opened.body.results[0]!.betId],
    ]);
    const [fight, upgrade, opening] = res.body.bets;
    // an opening names the weight table it was rolled against, in both languages
    expect(opening!.weightTableHash).toBe(opened.body.results[0]!.proof.weightTableHash);
    expect(opening!.weightTableHash).toMatch(/^[0-9a-f]{64}$/);
    expect(opening!.titleRu).toBe('Стартовый');
    expect(opening!.item?.ru?.gender).toMatch(/^[mfnp]$/);
    expect(upgrade!.weightTableHash).toBeNull();
    expect(upgrade!.success).toBe(upgraded.body.success);
    // a battle: its seed hash, the player's seat seed and number, the outcome and its dearest drop
    const seat = battle!.seats.find((s) => s.isYou)!;
    expect(fight).toMatchObject({
      serverSeedHash: battle!.serverSeedHash,
      clientSeed: seat.clientSeed,
      nonce: seat.seat,
      success: battle!.winnerTeam === seat.team,
      revealed: true,
      battle: { format: '1v1', mode: 'normal', rounds: 2 },
    });
    const drops = battle!.rolls.filter((r) => r.seat === seat.seat).map((r) => r.item);
    const dearest = Math.max(...drops.map((i) => Number(i.price)));
    expect(Number(fight!.item!.price)).toBe(dearest);
  });

  it('a new client seed for a used pair reveals the retired server seed', async () => {
    const userId = 850102;
    const token = await games.login({ id: userId });
    await setBalance(games, userId, 10n * TON);
    // an unused pair only takes the new client seed: nothing is retired
    const fresh = await games.call<SetClientSeedResponse>('PUT', '/fairness/client-seed', {
      token,
      body: { clientSeed: 'first-seed' },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.revealed).toBeUndefined();
    const before = (await games.call<FairnessState>('GET', '/fairness', { token })).body;
    await games.call('POST', '/cases/open', { token, body: { caseId: 'starter' } });
    const changed = await games.call<SetClientSeedResponse>('PUT', '/fairness/client-seed', {
      token,
      body: { clientSeed: 'second-seed' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.revealed?.serverSeedHash).toBe(before.serverSeedHash);
    expect(sha256(changed.body.revealed!.serverSeed)).toBe(before.serverSeedHash);
    expect(changed.body).toMatchObject({ clientSeed: 'second-seed', nonce: 0 });
    expect(changed.body.serverSeedHash).not.toBe(before.serverSeedHash);
  });
});
