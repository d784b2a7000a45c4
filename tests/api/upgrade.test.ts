import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FairnessState, RotateResponse } from '../../contract/cases.ts';
import type { ApiError } from '../../contract/common.ts';
import type {
  UpgradeConfigResponse,
  UpgradeHistoryResponse,
  UpgradeOptionsResponse,
  UpgradeRollResponse,
} from '../../contract/upgrade.ts';
import { UPGRADE_MULTIPLIERS } from '../../contract/upgrade.ts';
import { rollFraction } from '../../server/games/fair.ts';
import { startServer, type TestServer } from './harness.ts';
import { grantItems } from './holdings.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const BASE = 0.39;

interface UpgradeBooks {
  balanceNano: bigint;
  inventory: { item_id: string; quantity: number }[];
  ledger: number;
  seeds: { id: bigint; nonce: number; active: boolean }[];
  upgrades: { stake_item_id: string; target_item_id: string; success: boolean; nonce: number }[];
  idempotencyKeys: number;
}

/** Everything an upgrade may change for one player, straight from the database. */
async function upgradeBooks(server: TestServer, userId: number): Promise<UpgradeBooks> {
  const db = server.built.ctx.db;
  const id = BigInt(userId);
  const user = await db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const count = async (table: 'ledger' | 'idempotency_keys') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    balanceNano: user.balance_nano,
    inventory: await db
      .selectFrom('inventory')
      .select(['item_id', 'quantity'])
      .where('user_id', '=', id)
      .where('quantity', '>', 0)
      .orderBy('item_id')
      .execute(),
    ledger: await count('ledger'),
    seeds: await db
      .selectFrom('fairness_seeds')
      .select(['id', 'nonce', 'active'])
      .where('user_id', '=', id)
      .orderBy('id')
      .execute(),
    upgrades: await db
      .selectFrom('upgrades')
      .select(['stake_item_id', 'target_item_id', 'success', 'nonce'])
      .where('user_id', '=', id)
      .orderBy('id')
      .execute(),
    idempotencyKeys: await count('idempotency_keys'),
  };
}

const held = (b: UpgradeBooks, itemId: string) =>
  b.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0;
const totalItems = (b: UpgradeBooks) => b.inventory.reduce((s, r) => s + r.quantity, 0);

describe('the upgrade game', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const roll = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    server.call<UpgradeRollResponse & ApiError>('POST', '/upgrade/roll', { token, body, headers });

  it('tells its odds and multipliers, without a token', async () => {
    const res = await server.call<UpgradeConfigResponse>('GET', '/upgrade/config');
    expect(res).toEqual({ status: 200, body: { baseChance: BASE, multipliers: [...UPGRADE_MULTIPLIERS] } });
  });

  it('lists the targets of a stake at a multiplier, closest to stake × coef first', async () => {
    const res = await server.call<UpgradeOptionsResponse>('GET', '/upgrade/options?itemId=cake&coef=3');
    expect(res.status).toBe(200);
    expect(res.body.stake).toMatchObject({ id: 'cake', price: '2' });
    expect(res.body).toMatchObject({ coef: 3, targetPrice: '6' });
    // chance = base × stake price ÷ target price, for each target
    expect(res.body.chance).toBe(res.body.targets[0]!.chance);
    for (const t of res.body.targets) expect(t.chance).toBeCloseTo((BASE * 2) / Number(t.price), 15);
    expect(res.body.targets.map((t) => t.id)).toEqual([
      'champagne',
      'ton_stack',
      'surfboard',
      'gift_box',
      'bouquet',
      'teddy_bear',
      'xmas_tree',
    ]);
    const short = await server.call<UpgradeOptionsResponse>(
      'GET',
      '/upgrade/options?itemId=lollipop&coef=20',
    );
    expect(short.body.targets.length).toBeLessThanOrEqual(8);
    expect(short.body.targets[0]!.id).toBe('cake'); // 0.1 × 20 = 2 TON: the cake exactly
    expect(short.body.targets.map((t) => t.price)).toEqual([
      '2',
      '1.5',
      '1.25',
      '1',
      '0.9',
      '0.75',
      '0.6',
      '0.55',
    ]);
  });

  it('refuses options for an unknown item or a bad multiplier', async () => {
    expect(await server.call<ApiError>('GET', '/upgrade/options?itemId=nope&coef=2')).toMatchObject({
      status: 404,
      body: { code: 'ITEM_NOT_FOUND' },
    });
    for (const coef of ['4', '0', '-2', '2.5']) {
      expect(
        await server.call<ApiError>('GET', `/upgrade/options?itemId=cake&coef=${coef}`),
        coef,
      ).toMatchObject({
        status: 400,
        body: { code: 'INVALID_COEF' },
      });
    }
    expect(await server.call<ApiError>('GET', '/upgrade/options?itemId=cake&coef=x')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await server.call<ApiError>('GET', '/upgrade/options?itemId=cake')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
  });

  it('needs a token to roll', async () => {
    const res = await server.call<ApiError>('POST', '/upgrade/roll', {
      body: { baseChance: BASE, coef: 2, itemId: 'cake' },
    });
    expect(res).toMatchObject({ status: 401, body: { code: 'TOKEN_MISSING' } });
  });

  it('refuses every bad request and changes nothing', async () => {
    const userId = 830001;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { cake: 2, yacht: 1 });
    await server.call('GET', '/fairness', { token }); // the seed pair exists before, so it is compared too
    const before = await upgradeBooks(server, userId);

    const refusals: [string, Record<string, unknown>, number, string][] = [
      ['unknown item', { baseChance: BASE, coef: 2, itemId: 'nope' }, 404, 'ITEM_NOT_FOUND'],
      ['item not owned', { baseChance: BASE, coef: 2, itemId: 'rose' }, 404, 'ITEM_NOT_OWNED'],
      ['coef 4', { baseChance: BASE, coef: 4, itemId: 'cake' }, 400, 'INVALID_COEF'],
      ['coef 0', { baseChance: BASE, coef: 0, itemId: 'cake' }, 400, 'INVALID_COEF'],
      ['coef -1.5', { baseChance: BASE, coef: -1.5, itemId: 'cake' }, 400, 'INVALID_COEF'],
      ["coef '2'", { baseChance: BASE, coef: '2', itemId: 'cake' }, 400, 'VALIDATION_ERROR'],
      ['no coef', { baseChance: BASE, itemId: 'cake' }, 400, 'VALIDATION_ERROR'],
      ['tampered baseChance 0.5', { baseChance: 0.5, coef: 2, itemId: 'cake' }, 400, 'BASE_CHANCE_MISMATCH'],
      [
        'baseChance 0.39000001',
        { baseChance: 0.39000001, coef: 2, itemId: 'cake' },
        400,
        'BASE_CHANCE_MISMATCH',
      ],
      ["baseChance '0.39'", { baseChance: '0.39', coef: 2, itemId: 'cake' }, 400, 'VALIDATION_ERROR'],
      ['no item', { baseChance: BASE, coef: 2 }, 400, 'VALIDATION_ERROR'],
      ['extra field', { baseChance: BASE, coef: 2, itemId: 'cake', chance: 1 }, 400, 'VALIDATION_ERROR'],
      // cake 2 TON × 2 = 4 TON: the yacht is far too dear, the lollipop cheaper than the stake
      [
        'target too dear',
        { baseChance: BASE, coef: 2, itemId: 'cake', targetItemId: 'yacht' },
        400,
        'INVALID_TARGET',
      ],
      [
        'target cheaper',
        { baseChance: BASE, coef: 2, itemId: 'cake', targetItemId: 'lollipop' },
        400,
        'INVALID_TARGET',
      ],
      [
        'target = stake',
        { baseChance: BASE, coef: 2, itemId: 'cake', targetItemId: 'cake' },
        400,
        'INVALID_TARGET',
      ],
      [
        'unknown target',
        { baseChance: BASE, coef: 2, itemId: 'cake', targetItemId: 'nope' },
        400,
        'INVALID_TARGET',
      ],
      ['nothing dearer', { baseChance: BASE, coef: 20, itemId: 'yacht' }, 409, 'NO_UPGRADE_TARGET'],
    ];
    for (const [label, body, status, code] of refusals) {
      const res = await roll(token, body);
      expect(res.status, label).toBe(status);
      expect(res.body, label).toMatchObject({ statusCode: status, code });
      expect(await upgradeBooks(server, userId), label).toEqual(before);
    }
    // an invalid idempotency key is refused too, and a refused request with a valid one stores no key
    const badKey = await roll(
      token,
      { baseChance: BASE, coef: 2, itemId: 'cake' },
      { 'idempotency-key': 'ä' },
    );
    expect(badKey.status).toBe(400);
    const refusedWithKey = await roll(
      token,
      { baseChance: 0.5, coef: 2, itemId: 'cake' },
      { 'idempotency-key': 'k1' },
    );
    expect(refusedWithKey.body.code).toBe('BASE_CHANCE_MISMATCH');
    const notOwnedWithKey = await roll(
      token,
      { baseChance: BASE, coef: 2, itemId: 'rose' },
      { 'idempotency-key': 'k2' },
    );
    expect(notOwnedWithKey.body.code).toBe('ITEM_NOT_OWNED');
    expect(await upgradeBooks(server, userId)).toEqual(before);
  });

  it('takes the stake, rolls one nonce, adds the target on success, and the proof verifies after rotate', async () => {
    const userId = 830002;
    const token = await server.login({ id: userId });
    const stakes = 40;
    await grantItems(server, userId, { cake: stakes });
    const shown = (await server.call<FairnessState>('GET', '/fairness', { token })).body;
    const options = (
      await server.call<UpgradeOptionsResponse>('GET', '/upgrade/options?itemId=cake&coef=1.5', {})
    ).body;
    const defaultTarget = options.targets[0]!; // 2 × 1.5 = 3: the teddy bear
    expect(defaultTarget.id).toBe('teddy_bear');

    const answers: UpgradeRollResponse[] = [];
    for (let i = 0; i < stakes; i++) {
      const before = await upgradeBooks(server, userId);
      const res = await roll(token, { baseChance: BASE, coef: 1.5, itemId: 'cake' });
      expect(res.status).toBe(200);
      const a = res.body;
      answers.push(a);
      expect(a.chance).toBeCloseTo(0.26, 15);
      expect(a.coef).toBe(1.5);
      expect(a.rolled >= 0 && a.rolled < 1).toBe(true);
      expect(a.success).toBe(a.rolled < a.chance);
      expect(a.proof).toEqual({
        serverSeedHash: shown.serverSeedHash,
        clientSeed: shown.clientSeed,
        nonce: i,
        chanceNumerator: '13',
        chanceDenominator: '50',
      });
      expect(a.stake).toMatchObject({ id: 'cake', price: '2' });
      expect(a.target).toEqual(defaultTarget);
      expect(a.result).toEqual(a.success ? defaultTarget : null);

      const after = await upgradeBooks(server, userId);
      expect(held(after, 'cake')).toBe(held(before, 'cake') - 1);
      expect(held(after, 'teddy_bear')).toBe(held(before, 'teddy_bear') + (a.success ? 1 : 0));
      expect(totalItems(after)).toBe(totalItems(before) - (a.success ? 0 : 1));
      expect(after.balanceNano).toBe(before.balanceNano); // no money moves
      expect(after.ledger).toBe(before.ledger);
      expect(after.seeds.find((s) => s.active)!.nonce).toBe(i + 1);
      expect(after.upgrades.at(-1)).toEqual({
        stake_item_id: 'cake',
        target_item_id: 'teddy_bear',
        success: a.success,
        nonce: i,
      });
    }
    // the stake is gone: the next roll is refused
    expect((await roll(token, { baseChance: BASE, coef: 1.5, itemId: 'cake' })).body.code).toBe(
      'ITEM_NOT_OWNED',
    );

    const rotated = (await server.call<RotateResponse>('POST', '/fairness/rotate', { token })).body;
    expect(sha256(rotated.revealed.serverSeed)).toBe(shown.serverSeedHash);
    for (const a of answers) {
      const again = rollFraction(rotated.revealed.serverSeed, a.proof.clientSeed, a.proof.nonce);
      expect(again).toBe(a.rolled);
      // exactly: rolled < numerator / denominator  ⇔  roll × denominator < numerator × 2^52
      const roll = BigInt(again * 2 ** 52);
      expect(roll * BigInt(a.proof.chanceDenominator) < BigInt(a.proof.chanceNumerator) * 2n ** 52n).toBe(
        a.success,
      );
    }
    // the history shows every roll with its proof and, now, the revealed seed
    const history = await server.call<UpgradeHistoryResponse>('GET', '/upgrade/history?limit=100', { token });
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ page: 1, limit: 100, total: stakes });
    expect(history.body.upgrades.map((u) => u.id)).toEqual(answers.map((a) => a.upgradeId).reverse());
    for (const [i, entry] of history.body.upgrades.reverse().entries()) {
      const a = answers[i]!;
      expect(entry).toMatchObject({
        success: a.success,
        rolled: a.rolled,
        chance: a.chance,
        coef: 1.5,
        proof: a.proof,
        stake: a.stake,
        target: a.target,
        serverSeed: rotated.revealed.serverSeed,
      });
    }
    expect(
      (await server.call<UpgradeHistoryResponse>('GET', '/upgrade/history?page=2&limit=30', { token })).body
        .upgrades,
    ).toHaveLength(stakes - 30);
    expect((await server.call<ApiError>('GET', '/upgrade/history')).status).toBe(401);

    // the recorded rolls are the answered ones, exactly
    const rows = await server.built.ctx.db
      .selectFrom('upgrades')
      .select(['rolled', 'chance_numerator', 'chance_denominator', 'coef_tenths', 'stake_price_nano'])
      .where('user_id', '=', BigInt(userId))
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.rolled)).toEqual(answers.map((a) => a.rolled));
    for (const r of rows) {
      expect(r).toMatchObject({ chance_numerator: 13n, chance_denominator: 50n, coef_tenths: 15 });
      expect(r.stake_price_nano).toBe(2_000_000_000n);
    }
  });

  it('succeeds at about the configured chance over an API sample', async () => {
    const userId = 830003;
    const token = await server.login({ id: userId });
    const n = 300;
    await grantItems(server, userId, { lollipop: n });
    let successes = 0;
    for (let i = 0; i < n; i++) {
      const res = await roll(token, { baseChance: BASE, coef: 1.5, itemId: 'lollipop' });
      expect(res.status).toBe(200);
      if (res.body.success) successes++;
    }
    const p = BASE / 1.5;
    const sd = Math.sqrt(n * p * (1 - p));
    expect(Math.abs(successes - n * p), `${successes} of ${n}`).toBeLessThan(4.5 * sd);
    const after = await upgradeBooks(server, userId);
    expect(held(after, 'lollipop')).toBe(0);
    expect(held(after, 'candle')).toBe(successes);
    expect(after.upgrades.filter((u) => u.success)).toHaveLength(successes);
  });

  it('aims at the gift the player picked', async () => {
    const userId = 830004;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { cake: 30 });
    // cake 2 × 3 = 6: the xmas tree (2.5) is a valid, modest pick
    let won = false;
    for (let i = 0; i < 30 && !won; i++) {
      const res = await roll(token, { baseChance: BASE, coef: 3, itemId: 'cake', targetItemId: 'xmas_tree' });
      expect(res.status).toBe(200);
      expect(res.body.target.id).toBe('xmas_tree');
      if (res.body.success) {
        won = true;
        expect(res.body.result?.id).toBe('xmas_tree');
        expect(held(await upgradeBooks(server, userId), 'xmas_tree')).toBe(1);
      }
    }
    // the default target, named explicitly, is accepted even when it costs a little more than stake × coef
    await grantItems(server, userId, { ton_stack: 1 });
    const res = await roll(token, {
      baseChance: BASE,
      coef: 1.5,
      itemId: 'ton_stack',
      targetItemId: 'potion',
    });
    expect(res.status).toBe(200);
    expect(res.body.target.id).toBe('potion');
  });

  it('swaps the stake atomically: of 10 parallel rolls on one item, exactly one is played', async () => {
    const userId = 830005;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { rose: 1, candy: 3 });
    await server.call('GET', '/fairness', { token });
    const before = await upgradeBooks(server, userId);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => roll(token, { baseChance: BASE, coef: 2, itemId: 'rose' })),
    );
    const played = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(played).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.body).toMatchObject({ statusCode: 404, code: 'ITEM_NOT_OWNED' });

    const answer = played[0]!.body;
    const after = await upgradeBooks(server, userId);
    expect(held(after, 'rose')).toBe(0);
    expect(held(after, 'candy')).toBe(3);
    expect(held(after, answer.target.id)).toBe(answer.success ? 1 : 0);
    expect(after.upgrades).toHaveLength(1);
    expect(after.seeds.find((s) => s.active)!.nonce).toBe(before.seeds.find((s) => s.active)!.nonce + 1);
    // nothing went below zero anywhere
    const rows = await server.built.ctx.db
      .selectFrom('inventory')
      .select('quantity')
      .where('user_id', '=', BigInt(userId))
      .execute();
    for (const r of rows) expect(r.quantity >= 0).toBe(true);
  });

  it('replays a retried request with the same Idempotency-Key instead of rolling again', async () => {
    const userId = 830006;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { star: 3 });
    const body = { baseChance: BASE, coef: 2, itemId: 'star' };
    const first = await roll(token, body, { 'idempotency-key': 'upgrade-1' });
    expect(first.status).toBe(200);
    const again = await server.call<UpgradeRollResponse>('POST', '/upgrade/roll', {
      token,
      body,
      headers: { 'idempotency-key': 'upgrade-1' },
    });
    expect(again).toEqual({ status: 200, body: first.body });
    const after = await upgradeBooks(server, userId);
    expect(held(after, 'star')).toBe(2);
    expect(after.upgrades).toHaveLength(1);
    const reused = await roll(token, { ...body, coef: 3 }, { 'idempotency-key': 'upgrade-1' });
    expect(reused).toMatchObject({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  });
});

describe('the configured base chance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { UPGRADE_BASE_CHANCE: '0.5' } });
  });
  afterAll(() => server.close());

  it('is what the server plays and expects', async () => {
    expect((await server.call<UpgradeConfigResponse>('GET', '/upgrade/config')).body.baseChance).toBe(0.5);
    const userId = 830101;
    const token = await server.login({ id: userId });
    await grantItems(server, userId, { cake: 1 });
    const stale = await server.call<ApiError>('POST', '/upgrade/roll', {
      token,
      body: { baseChance: BASE, coef: 2, itemId: 'cake' },
    });
    expect(stale).toMatchObject({ status: 400, body: { code: 'BASE_CHANCE_MISMATCH' } });
    const res = await server.call<UpgradeRollResponse>('POST', '/upgrade/roll', {
      token,
      body: { baseChance: 0.5, coef: 2, itemId: 'cake' },
    });
    expect(res.status).toBe(200);
    expect(res.body.chance).toBe(0.25);
    expect(res.body.proof).toMatchObject({ chanceNumerator: '1', chanceDenominator: '4' });
  });
});
