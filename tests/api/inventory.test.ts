import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../contract/common.ts';
import type { OpenCaseResponse, OpenMultipleResponse } from '../../contract/cases.ts';
import type {
  AdminResolveResponse,
  AdminWithdrawalsResponse,
  InventoryResponse,
  SellResponse,
  WithdrawResponse,
  WithdrawalsResponse,
} from '../../contract/inventory.ts';
import { runAdminCli } from '../../server/admin-cli.ts';
import { WITHDRAWALS_CHANNEL } from '../../server/realtime/withdrawals.ts';
import { giveToInventory } from '../../server/inventory/inventory.ts';
import { setBalance, startServer, type TestServer } from './harness.ts';
import { TON } from './games.ts';
import { books, expectLedgerBalances, grantItems, held } from './holdings.ts';

// Catalogue prices (nanoTON) of the items these tests hold.
const PRICE = {
  lollipop: 100_000_000n,
  candy: 300_000_000n,
  cake: 2n * TON,
  ton_stack: 5n * TON,
  diamond: 45n * TON,
} as const;

const ADMIN_KEY = 'operator-key-for-api-tests-0123456789';

/** How many of an item the open-multiple answers among `answers` won. */
function wonOf(answers: { status: number; body: unknown }[], itemId: string): number {
  return answers
    .filter((a) => a.status === 200 && 'results' in (a.body as object))
    .flatMap((a) => (a.body as OpenMultipleResponse).results)
    .filter((r) => r.item.id === itemId).length;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_KEY } });
});
afterAll(() => server.close());

/** A signed-in player with the given items and (optionally) a balance. */
async function player(id: number, items: Record<string, number> = {}, balanceNano?: bigint) {
  const token = await server.login({ id });
  if (balanceNano !== undefined) await setBalance(server, id, balanceNano);
  await grantItems(server, id, items);
  return token;
}

describe('the inventory', () => {
  it('lists what the player holds (quantity > 0), dearest first, with the item as the spec shows it', async () => {
    const token = await player(820001, { candy: 2, diamond: 1, lollipop: 5, cake: 0 });
    const res = await server.call<InventoryResponse>('GET', '/inventory', { token });
    expect(res.status).toBe(200);
    // acquiredAt: when the item last came in (the inventory's "newest" order)
    const acquired = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(res.body).toEqual({
      inventory: [
        {
          id: 'diamond',
          quantity: 1,
          acquiredAt: acquired,
          item: {
            id: 'diamond',
            name: 'Diamond',
            imageUrl: '/assets/items/diamond.svg',
            price: '45',
            rarity: 'epic',
          },
          withdrawable: true,
        },
        {
          id: 'candy',
          quantity: 2,
          acquiredAt: acquired,
          item: {
            id: 'candy',
            name: 'Candy',
            imageUrl: '/assets/items/candy.svg',
            price: '0.3',
            rarity: 'common',
          },
          withdrawable: true,
        },
        {
          id: 'lollipop',
          quantity: 5,
          acquiredAt: acquired,
          item: {
            id: 'lollipop',
            name: 'Lollipop',
            imageUrl: '/assets/items/lollipop.svg',
            price: '0.1',
            rarity: 'common',
          },
          withdrawable: true,
        },
      ],
    });
    // a new unit moves the item's acquiredAt forward; a sale does not
    const first = res.body.inventory.find((e) => e.id === 'candy')!.acquiredAt;
    await new Promise((r) => setTimeout(r, 20));
    await server.call('POST', '/inventory/sell', { token, body: { itemId: 'lollipop', quantity: 1 } });
    await server.built.ctx.db.transaction().execute((trx) => giveToInventory(trx, 820001n, 'candy', 1));
    const later = (await server.call<InventoryResponse>('GET', '/inventory', { token })).body.inventory;
    expect(Date.parse(later.find((e) => e.id === 'candy')!.acquiredAt)).toBeGreaterThan(Date.parse(first));
    expect(later.find((e) => e.id === 'lollipop')!.acquiredAt).toBe(
      res.body.inventory.find((e) => e.id === 'lollipop')!.acquiredAt,
    );
    const empty = await server.call<InventoryResponse>('GET', '/inventory', { token: await player(820002) });
    expect(empty).toEqual({ status: 200, body: { inventory: [] } });
    expect((await server.call<ApiError>('GET', '/inventory')).status).toBe(401);
  });
});

describe('selling', () => {
  it('sells some of one item: credits price × quantity with one ledger row, in one step', async () => {
    const token = await player(820101, { candy: 3, cake: 1 }, 1n * TON);
    const res = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'candy', quantity: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sold: [{ itemId: 'candy', quantity: 2, amount: '0.6' }],
      total: '0.6',
      balance: '1.6',
    });

    const after = await books(server, 820101);
    expect(held(after, 'candy')).toBe(1);
    expect(held(after, 'cake')).toBe(1);
    expect(after.balanceNano).toBe(1n * TON + 2n * PRICE.candy);
    expect(after.ledger.at(-1)).toMatchObject({
      kind: 'sell',
      ref: 'candy',
      delta_nano: 2n * PRICE.candy,
      balance_after_nano: after.balanceNano,
    });
    expectLedgerBalances(after);

    // the last one, then none left
    const last = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'candy', quantity: 1 },
    });
    expect(last.body.sold).toEqual([{ itemId: 'candy', quantity: 1, amount: '0.3' }]);
    const list = await server.call<InventoryResponse>('GET', '/inventory', { token });
    expect(list.body.inventory.map((e) => e.id)).toEqual(['cake']);
    const again = await server.call<ApiError>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'candy', quantity: 1 },
    });
    expect(again).toMatchObject({ status: 404, body: { code: 'ITEM_NOT_OWNED' } });
  });

  it('sells everything: one credit, one ledger row per item, an empty inventory after', async () => {
    const token = await player(820102, { lollipop: 4, diamond: 1, cake: 2 });
    const before = await books(server, 820102);
    const res = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { sellAll: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sold: [
        { itemId: 'diamond', quantity: 1, amount: '45' },
        { itemId: 'cake', quantity: 2, amount: '4' },
        { itemId: 'lollipop', quantity: 4, amount: '0.4' },
      ],
      total: '49.4',
      balance: '49.4',
    });
    const after = await books(server, 820102);
    expect(after.inventory.every((r) => r.quantity === 0)).toBe(true);
    expect(after.balanceNano).toBe(PRICE.diamond + 2n * PRICE.cake + 4n * PRICE.lollipop);
    expect(after.ledger.slice(before.ledger.length).map((r) => [r.kind, r.ref, r.delta_nano])).toEqual([
      ['sell', 'diamond', PRICE.diamond],
      ['sell', 'cake', 2n * PRICE.cake],
      ['sell', 'lollipop', 4n * PRICE.lollipop],
    ]);
    expectLedgerBalances(after);
    expect((await server.call<InventoryResponse>('GET', '/inventory', { token })).body.inventory).toEqual([]);

    // nothing left: refused, nothing changed
    const empty = await server.call<ApiError>('POST', '/inventory/sell', { token, body: { sellAll: true } });
    expect(empty).toMatchObject({ status: 409, body: { statusCode: 409, code: 'INVENTORY_EMPTY' } });
    expect(await books(server, 820102)).toEqual(after);
  });

  it('sells a selection in one request: one credit, a ledger row per item, all or nothing', async () => {
    const token = await player(820104, { candy: 3, cake: 2, diamond: 1 }, 1n * TON);
    const before = await books(server, 820104);
    const res = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: {
        items: [
          { itemId: 'candy', quantity: 2 },
          { itemId: 'diamond', quantity: 1 },
        ],
      },
      headers: { 'idempotency-key': 'selection-820104' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sold: [
        { itemId: 'candy', quantity: 2, amount: '0.6' },
        { itemId: 'diamond', quantity: 1, amount: '45' },
      ],
      total: '45.6',
      balance: '46.6',
    });
    const after = await books(server, 820104);
    expect([held(after, 'candy'), held(after, 'cake'), held(after, 'diamond')]).toEqual([1, 2, 0]);
    expect(after.balanceNano).toBe(1n * TON + 2n * PRICE.candy + PRICE.diamond);
    expect(after.ledger.slice(before.ledger.length).map((r) => [r.kind, r.ref, r.delta_nano])).toEqual([
      ['sell', 'candy', 2n * PRICE.candy],
      ['sell', 'diamond', PRICE.diamond],
    ]);
    expectLedgerBalances(after);

    // the same tap again: the stored answer, nothing sold twice
    const replay = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: {
        items: [
          { itemId: 'candy', quantity: 2 },
          { itemId: 'diamond', quantity: 1 },
        ],
      },
      headers: { 'idempotency-key': 'selection-820104' },
    });
    expect(replay.body).toEqual(res.body);
    expect(await books(server, 820104)).toEqual(after);

    // one line the player cannot cover refuses the whole selection
    const refused: [unknown, number, string][] = [
      [
        {
          items: [
            { itemId: 'cake', quantity: 1 },
            { itemId: 'diamond', quantity: 1 },
          ],
        },
        404,
        'ITEM_NOT_OWNED',
      ],
      [
        {
          items: [
            { itemId: 'cake', quantity: 1 },
            { itemId: 'candy', quantity: 2 },
          ],
        },
        409,
        'INSUFFICIENT_QUANTITY',
      ],
      [
        {
          items: [
            { itemId: 'cake', quantity: 1 },
            { itemId: 'cake', quantity: 1 },
          ],
        },
        400,
        'DUPLICATE_ITEM',
      ],
      [{ items: [] }, 400, 'VALIDATION_ERROR'],
      [{ items: [{ itemId: 'cake', quantity: 0 }] }, 400, 'VALIDATION_ERROR'],
      [
        { items: Array.from({ length: 101 }, (_, i) => ({ itemId: `x${i}`, quantity: 1 })) },
        400,
        'VALIDATION_ERROR',
      ],
      [{ items: [{ itemId: 'cake', quantity: 1 }], sellAll: true }, 400, 'VALIDATION_ERROR'],
      [{ items: 'cake' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of refused) {
      const r = await server.call<ApiError>('POST', '/inventory/sell', { token, body });
      expect([r.status, r.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(await books(server, 820104)).toEqual(after);
  });

  it('refuses bad quantities, unknown and unowned items with a JSON error, changing nothing', async () => {
    const token = await player(820103, { candy: 2, cake: 0 }, 3n * TON);
    const before = await books(server, 820103);
    const cases: [unknown, number, string][] = [
      [{ itemId: 'candy', quantity: 0 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: -1 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: 1.5 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: '1' }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: null }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: 1e10 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy' }, 400, 'VALIDATION_ERROR'],
      [{ quantity: 1 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: '', quantity: 1 }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: 1, extra: true }, 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: 1, sellAll: true }, 400, 'VALIDATION_ERROR'],
      [{ sellAll: false }, 400, 'VALIDATION_ERROR'],
      [{ sellAll: 'true' }, 400, 'VALIDATION_ERROR'],
      [{}, 400, 'VALIDATION_ERROR'],
      [[], 400, 'VALIDATION_ERROR'],
      [{ itemId: 'candy', quantity: 3 }, 409, 'INSUFFICIENT_QUANTITY'],
      [{ itemId: 'no_such_item', quantity: 1 }, 404, 'ITEM_NOT_OWNED'],
      [{ itemId: 'diamond', quantity: 1 }, 404, 'ITEM_NOT_OWNED'],
      [{ itemId: 'cake', quantity: 1 }, 404, 'ITEM_NOT_OWNED'],
    ];
    for (const path of ['/inventory/sell', '/inventory/withdraw']) {
      for (const [body, status, code] of cases) {
        // sellAll is a sell-only shape: withdraw refuses it as a validation error too
        const res = await server.call<ApiError>('POST', path, { token, body });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
        expect(res.body.code, `${path} ${JSON.stringify(body)}`).toBe(code);
        expect(res.body.statusCode).toBe(status);
      }
      for (const rawBody of ['not json', '{"itemId":"candy","quantity":1']) {
        const res = await server.call<ApiError>('POST', path, { token, rawBody });
        expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
      }
      const noToken = await server.call<ApiError>('POST', path, { body: { itemId: 'candy', quantity: 1 } });
      expect(noToken.status).toBe(401);
    }
    expect(await books(server, 820103)).toEqual(before);
  });
});

describe('withdrawing', () => {
  it('moves items out of the inventory into a pending request the player can list', async () => {
    const token = await player(820201, { ton_stack: 3, candy: 1 }, 2n * TON);
    const before = await books(server, 820201);
    const res = await server.call<WithdrawResponse>('POST', '/inventory/withdraw', {
      token,
      body: { itemId: 'ton_stack', quantity: 2 },
    });
    expect(res.status).toBe(200);
    const w = res.body.withdrawal;
    expect(w).toMatchObject({
      item: { id: 'ton_stack', name: 'TON Stack', imageUrl: '/assets/items/ton_stack.svg', price: '5' },
      quantity: 2,
      status: 'pending',
      resolvedAt: null,
      note: null,
    });
    expect(new Date(w.createdAt).toISOString()).toBe(w.createdAt);

    const after = await books(server, 820201);
    expect(held(after, 'ton_stack')).toBe(1);
    expect(after.balanceNano).toBe(before.balanceNano);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.withdrawals).toEqual([
      { id: BigInt(w.id), item_id: 'ton_stack', quantity: 2, status: 'pending', note: null },
    ]);

    await server.call('POST', '/inventory/withdraw', { token, body: { itemId: 'candy', quantity: 1 } });
    const list = await server.call<WithdrawalsResponse>('GET', '/inventory/withdrawals', { token });
    expect(list.status).toBe(200);
    expect(list.body.withdrawals.map((x) => [x.item.id, x.quantity, x.status])).toEqual([
      ['candy', 1, 'pending'],
      ['ton_stack', 2, 'pending'],
    ]);
    expect(list.body.withdrawals[1]).toEqual(w);
    // another player sees none of them
    const other = await player(820202);
    expect((await server.call('GET', '/inventory/withdrawals', { token: other })).body).toEqual({
      withdrawals: [],
    });

    const over = await server.call<ApiError>('POST', '/inventory/withdraw', {
      token,
      body: { itemId: 'ton_stack', quantity: 2 },
    });
    expect(over).toMatchObject({ status: 409, body: { code: 'INSUFFICIENT_QUANTITY' } });
  });

  it('the operator completes or fails pending requests; failing returns the items; only pending ones', async () => {
    const token = await player(820301, { cake: 5 });
    const withdraw = async (quantity: number) =>
      (
        await server.call<WithdrawResponse>('POST', '/inventory/withdraw', {
          token,
          body: { itemId: 'cake', quantity },
        })
      ).body.withdrawal.id;
    const first = await withdraw(2);
    const second = await withdraw(3);
    expect(held(await books(server, 820301), 'cake')).toBe(0);

    const admin = { 'x-admin-key': ADMIN_KEY };
    // no key, a wrong key
    for (const [headers, status, code] of [
      [{}, 401, 'ADMIN_KEY_MISSING'],
      [{ 'x-admin-key': 'wrong-key-wrong-key-wrong' }, 403, 'ADMIN_KEY_INVALID'],
      [{ 'x-admin-key': ADMIN_KEY + 'x' }, 403, 'ADMIN_KEY_INVALID'],
    ] as const) {
      for (const [method, path] of [
        ['GET', '/admin/withdrawals'],
        ['POST', `/admin/withdrawals/${first}/complete`],
        ['POST', `/admin/withdrawals/${first}/fail`],
      ]) {
        const res = await server.call<ApiError>(method!, path!, { headers: { ...headers } });
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(res.body.code).toBe(code);
      }
    }
    // a player's token is not an operator key
    expect((await server.call('GET', '/admin/withdrawals', { token })).status).toBe(401);
    expect(held(await books(server, 820301), 'cake')).toBe(0);

    const pending = await server.call<AdminWithdrawalsResponse>('GET', '/admin/withdrawals?status=pending', {
      headers: admin,
    });
    expect(pending.status).toBe(200);
    const mine = pending.body.withdrawals.filter((x) => x.userId === '820301');
    expect(mine.map((x) => [x.id, x.quantity, x.status])).toEqual([
      [first, 2, 'pending'],
      [second, 3, 'pending'],
    ]);

    const done = await server.call<AdminResolveResponse>('POST', `/admin/withdrawals/${first}/complete`, {
      headers: admin,
    });
    expect(done.status).toBe(200);
    expect(done.body.withdrawal).toMatchObject({
      id: first,
      status: 'completed',
      userId: '820301',
      quantity: 2,
    });
    expect(done.body.withdrawal.resolvedAt).not.toBeNull();
    expect(held(await books(server, 820301), 'cake')).toBe(0);

    // resolved once: completing or failing it again is a conflict, and changes nothing
    const settled = await books(server, 820301);
    for (const action of ['complete', 'fail']) {
      const res = await server.call<ApiError>('POST', `/admin/withdrawals/${first}/${action}`, {
        headers: admin,
      });
      expect(res).toMatchObject({ status: 409, body: { code: 'WITHDRAWAL_NOT_PENDING' } });
    }
    expect(await books(server, 820301)).toEqual(settled);

    const failed = await server.call<AdminResolveResponse>('POST', `/admin/withdrawals/${second}/fail`, {
      headers: admin,
      body: { note: 'address rejected' },
    });
    expect(failed.body.withdrawal).toMatchObject({ status: 'failed', note: 'address rejected' });
    const back = await books(server, 820301);
    expect(held(back, 'cake')).toBe(3);
    const again = await server.call<ApiError>('POST', `/admin/withdrawals/${second}/fail`, {
      headers: admin,
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'WITHDRAWAL_NOT_PENDING' } });
    expect(held(await books(server, 820301), 'cake')).toBe(3);

    // the player sees both outcomes
    const list = await server.call<WithdrawalsResponse>('GET', '/inventory/withdrawals', { token });
    expect(list.body.withdrawals.map((x) => [x.id, x.status])).toEqual([
      [second, 'failed'],
      [first, 'completed'],
    ]);

    for (const [path, status, code] of [
      ['/admin/withdrawals/999999999/complete', 404, 'WITHDRAWAL_NOT_FOUND'],
      ['/admin/withdrawals/abc/complete', 400, 'VALIDATION_ERROR'],
      ['/admin/withdrawals/0/fail', 400, 'VALIDATION_ERROR'],
    ] as const) {
      const res = await server.call<ApiError>('POST', path, { headers: admin });
      expect(res.status, path).toBe(status);
      expect(res.body.code).toBe(code);
    }
    const badNote = await server.call<ApiError>('POST', `/admin/withdrawals/${first}/fail`, {
      headers: admin,
      body: { note: 'x', other: 1 },
    });
    expect(badNote.status).toBe(400);
  });

  it('the operator API is off (404) when no ADMIN_KEY is configured', async () => {
    const plain = await startServer({ database: server.built.ctx.database });
    try {
      for (const [method, path] of [
        ['GET', '/admin/withdrawals'],
        ['POST', '/admin/withdrawals/1/complete'],
        ['POST', '/admin/withdrawals/1/fail'],
      ] as const) {
        const res = await plain.call<ApiError>(method, path, { headers: { 'x-admin-key': ADMIN_KEY } });
        expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      }
    } finally {
      await plain.close();
    }
  });

  it('the admin command line lists, completes and fails requests', async () => {
    const token = await player(820401, { candy: 4 });
    const ids: string[] = [];
    for (const quantity of [1, 3]) {
      const res = await server.call<WithdrawResponse>('POST', '/inventory/withdraw', {
        token,
        body: { itemId: 'candy', quantity },
      });
      ids.push(res.body.withdrawal.id);
    }
    // what the command line announces to running servers (their sockets tell the player's app)
    const announced: unknown[] = [];
    const stop = server.built.ctx.bus.subscribe(WITHDRAWALS_CHANNEL, (payload) => announced.push(payload));
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdminCli(
        args,
        server.built.ctx.db,
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        { rtp: server.built.ctx.config.rtp, bus: server.built.ctx.bus },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    };

    const list = await run('withdrawals', 'list');
    expect(list.code).toBe(0);
    for (const id of ids) expect(list.out).toMatch(new RegExp(`#${id} +pending +user 820401 +\\d × Candy`));

    expect(await run('withdrawals', 'complete', ids[0]!, 'sent', 'to', 'wallet')).toMatchObject({ code: 0 });
    expect((await run('withdrawals', 'complete', ids[0]!)).code).toBe(1);
    const failed = await run('withdrawals', 'fail', ids[1]!);
    expect(failed.code).toBe(0);
    expect(failed.out).toContain('3 × candy returned to user 820401');
    expect((await run('withdrawals', 'fail', ids[1]!)).err).toContain('WITHDRAWAL_NOT_PENDING');
    expect((await run('withdrawals', 'fail', '999999999')).err).toContain('WITHDRAWAL_NOT_FOUND');
    expect((await run('withdrawals', 'fail')).code).toBe(2);
    expect((await run('withdrawals', 'list', 'weird')).code).toBe(2);
    expect((await run('nothing')).code).toBe(2);

    const b = await books(server, 820401);
    expect(held(b, 'candy')).toBe(3);
    expect(b.withdrawals.map((w) => [w.status, w.note])).toEqual([
      ['completed', 'sent to wallet'],
      ['failed', null],
    ]);
    const all = await run('withdrawals', 'list', 'all');
    expect(all.out).toContain(`#${ids[0]}  completed`);
    // one announcement per resolution that changed something, none for the refused ones
    stop();
    expect(announced).toEqual([
      { userId: '820401', id: ids[0], status: 'completed' },
      { userId: '820401', id: ids[1], status: 'failed' },
    ]);
  });
});

describe('the books', () => {
  it('opening, selling and withdrawing at once for one player: no deadlock, nothing lost', async () => {
    const id = 820502;
    const token = await player(id, { cake: 6, candy: 6 }, 20n * TON);
    const requests = [
      ...Array.from({ length: 4 }, () => ['/cases/open-multiple', { caseId: 'starter', amount: 3 }] as const),
      ...Array.from({ length: 4 }, () => ['/inventory/sell', { itemId: 'cake', quantity: 1 }] as const),
      ...Array.from({ length: 3 }, () => ['/inventory/withdraw', { itemId: 'candy', quantity: 2 }] as const),
      ['/inventory/sell', { sellAll: true }] as const,
    ];
    const answers = await Promise.all(
      requests.map(([path, body]) => server.call('POST', path, { token, body })),
    );
    // sell-all may run before or after the others, so some later sells may find nothing left
    for (const a of answers) expect([200, 404, 409]).toContain(a.status);
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const b = await books(server, id);
    expectLedgerBalances(b);
    expect(b.openings).toBe(12);
    const withdrawn = b.withdrawals.reduce((s, w) => s + w.quantity, 0);
    const soldCandy = answers
      .filter((a) => a.status === 200 && 'sold' in (a.body as object))
      .flatMap((a) => (a.body as SellResponse).sold)
      .filter((l) => l.itemId === 'candy')
      .reduce((s, l) => s + l.quantity, 0);
    expect(withdrawn + soldCandy + held(b, 'candy')).toBe(6 + wonOf(answers, 'candy'));
  });

  it('open, sell one, withdraw, sell all: every balance change has a ledger row summing to the balance', async () => {
    const id = 820501;
    const token = await player(id, {}, 10n * TON);
    const opened = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
      token,
      body: { caseId: 'starter', amount: 3 },
    });
    expect(opened.status).toBe(200);
    const one = await server.call<OpenCaseResponse>('POST', '/cases/open', {
      token,
      body: { caseId: 'starter' },
    });
    expect(one.status).toBe(200);
    const won = [...opened.body.results.map((r) => r.item.id), one.body.item.id];

    const sold = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: won[0], quantity: 1 },
    });
    expect(sold.status).toBe(200);
    const withdrawn = await server.call<WithdrawResponse>('POST', '/inventory/withdraw', {
      token,
      body: { itemId: won[1], quantity: 1 },
    });
    expect(withdrawn.status).toBe(200);
    const rest = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { sellAll: true },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.sold.reduce((s, l) => s + l.quantity, 0)).toBe(2);
    expect(rest.body.balance).toBe(
      (await server.call<{ balance: string }>('GET', '/deposit/balance', { token })).body.balance,
    );

    const b = await books(server, id);
    expectLedgerBalances(b);
    expect(b.ledger.map((r) => r.kind)).toEqual([
      'test_setup',
      'case_open',
      'case_open',
      'sell',
      ...rest.body.sold.map(() => 'sell'),
    ]);
    // every item won is accounted for: sold or withdrawn, none left
    expect(b.openings).toBe(4);
    expect(b.inventory.every((r) => r.quantity === 0)).toBe(true);
    expect(b.withdrawals).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  const withKey = (key: string) => ({ 'idempotency-key': key });

  it('a retry with the same key gets the first answer and changes nothing more (sell, withdraw, open)', async () => {
    const id = 820601;
    const token = await player(id, { cake: 3, candy: 2 }, 5n * TON);
    const requests: [string, unknown][] = [
      ['/inventory/sell', { itemId: 'cake', quantity: 1 }],
      ['/inventory/sell', { sellAll: true }],
      ['/inventory/withdraw', { itemId: 'candy', quantity: 1 }],
      ['/cases/open', { caseId: 'starter' }],
      ['/cases/open-multiple', { caseId: 'starter', amount: 2 }],
    ];
    // sellAll would sell what the other requests need: give it its own player
    const sellAllToken = await player(820602, { lollipop: 2 });
    for (const [index, [path, body]] of requests.entries()) {
      const who = (body as { sellAll?: boolean }).sellAll
        ? { token: sellAllToken, id: 820602 }
        : { token, id };
      const key = `retry-${index}-${path}`;
      const first = await server.call('POST', path, { token: who.token, body, headers: withKey(key) });
      expect(first.status, path).toBe(200);
      const after = await books(server, who.id);
      for (let i = 0; i < 2; i++) {
        const retry = await server.call('POST', path, { token: who.token, body, headers: withKey(key) });
        expect(retry, path).toEqual(first);
      }
      expect(await books(server, who.id), path).toEqual(after);
      expectLedgerBalances(after);
    }
    // a new key is a new request
    const fresh = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 1 },
      headers: withKey('another'),
    });
    expect(fresh.status).toBe(200);
    expect(held(await books(server, id), 'cake')).toBe(1);
  });

  it('marks a replayed answer with a header', async () => {
    const token = await player(820603, { candy: 2 });
    const send = () =>
      fetch(`${server.baseUrl}/api/inventory/sell`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': 'k1',
        },
        body: JSON.stringify({ itemId: 'candy', quantity: 1 }),
      });
    const first = await send();
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await send();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
  });

  it('5 identical requests at once apply once and all get the same answer', async () => {
    const id = 820701;
    const token = await player(id, { cake: 10 }, 5n * TON);
    const before = await books(server, id);
    const parallel = (path: string, body: unknown, key: string) =>
      Promise.all(
        Array.from({ length: 5 }, () => server.call('POST', path, { token, body, headers: withKey(key) })),
      );

    const sells = await parallel('/inventory/sell', { itemId: 'cake', quantity: 2 }, 'parallel-sell');
    for (const r of sells) expect(r).toEqual(sells[0]);
    expect(sells[0]!.status).toBe(200);
    let now = await books(server, id);
    expect(held(now, 'cake')).toBe(8);
    expect(now.balanceNano).toBe(before.balanceNano + 2n * PRICE.cake);
    expect(now.ledger.length).toBe(before.ledger.length + 1);

    const withdrawals = await parallel('/inventory/withdraw', { itemId: 'cake', quantity: 3 }, 'parallel-w');
    for (const r of withdrawals) expect(r).toEqual(withdrawals[0]);
    now = await books(server, id);
    expect(held(now, 'cake')).toBe(5);
    expect(now.withdrawals).toHaveLength(1);

    const opens = await parallel('/cases/open', { caseId: 'starter' }, 'parallel-open');
    for (const r of opens) expect(r).toEqual(opens[0]);
    expect(opens[0]!.status).toBe(200);
    now = await books(server, id);
    expect(now.openings).toBe(1);
    expect(now.balanceNano).toBe(before.balanceNano + 2n * PRICE.cake - 500_000_000n);
    expectLedgerBalances(now);

    // and without a key, the same five requests are five requests
    const plain = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.call('POST', '/inventory/sell', { token, body: { itemId: 'cake', quantity: 1 } }),
      ),
    );
    expect(plain.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(held(await books(server, id), 'cake')).toBe(0);
  });

  it('the same key with another request is refused with 422, changing nothing', async () => {
    const id = 820801;
    const token = await player(id, { cake: 3 }, 5n * TON);
    const first = await server.call('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 1 },
      headers: withKey('reused'),
    });
    expect(first.status).toBe(200);
    const after = await books(server, id);
    for (const [path, body] of [
      ['/inventory/sell', { itemId: 'cake', quantity: 2 }],
      ['/inventory/sell', { sellAll: true }],
      ['/inventory/withdraw', { itemId: 'cake', quantity: 1 }],
      ['/cases/open', { caseId: 'starter' }],
    ] as const) {
      const res = await server.call<ApiError>('POST', path, { token, body, headers: withKey('reused') });
      expect(res.status, path).toBe(422);
      expect(res.body).toMatchObject({
        statusCode: 422,
        error: 'Unprocessable Entity',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
    }
    expect(await books(server, id)).toEqual(after);

    // keys belong to a player: another player's request with the same key is their own
    const other = await player(820802, { cake: 1 });
    const theirs = await server.call<SellResponse>('POST', '/inventory/sell', {
      token: other,
      body: { itemId: 'cake', quantity: 1 },
      headers: withKey('reused'),
    });
    expect(theirs.status).toBe(200);
    expect(held(await books(server, 820802), 'cake')).toBe(0);
  });

  it('an opening claims its key with its first statement: a retry replays the answer even once the case has closed; a refused opening is not stored', async () => {
    const id = 821001;
    const token = await player(id, {}, 1n * TON);
    const open = (amount: number, key: string) =>
      server.call<OpenMultipleResponse | ApiError>('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount },
        headers: withKey(key),
      });
    const first = await open(2, 'open-then-close');
    expect(first.status).toBe(200);
    const after = await books(server, id);
    expect(after.balanceNano).toBe(0n);
    const { db } = server.built.ctx;
    await db.updateTable('cases').set({ is_active: false }).where('id', '=', 'starter').execute();
    try {
      // the case is closed and the money spent, yet the retry is the same request: its stored answer
      const retry = await open(2, 'open-then-close');
      expect(retry).toEqual(first);
      // a new key is a new request, refused as the case is now
      expect(await open(2, 'after-close')).toMatchObject({ status: 409, body: { code: 'CASE_INACTIVE' } });
    } finally {
      await db.updateTable('cases').set({ is_active: true }).where('id', '=', 'starter').execute();
    }
    expect(await books(server, id)).toEqual(after);

    // refused for want of money: nothing is stored under the key, so its retry after a top-up opens
    expect(await open(3, 'refused-first')).toMatchObject({
      status: 402,
      body: { code: 'INSUFFICIENT_BALANCE' },
    });
    expect(await books(server, id)).toEqual(after);
    await setBalance(server, id, 2n * TON);
    const retried = await open(3, 'refused-first');
    expect(retried.status).toBe(200);
    expect((retried.body as OpenMultipleResponse).results).toHaveLength(3);
    expect((await books(server, id)).balanceNano).toBe(2n * TON - 3n * 500_000_000n);
    expectLedgerBalances(await books(server, id));
  });

  it('a malformed key is refused; a refused request is not stored, so its retry runs afresh', async () => {
    const id = 820901;
    const token = await player(id, { cake: 1 });
    const before = await books(server, id);
    for (const key of ['', 'x'.repeat(129), 'tab\there', 'é']) {
      const res = await server.call<ApiError>('POST', '/inventory/sell', {
        token,
        body: { itemId: 'cake', quantity: 1 },
        headers: { 'idempotency-key': key },
      });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
    }
    expect(await books(server, id)).toEqual(before);

    const tooMany = await server.call<ApiError>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 2 },
      headers: withKey('x'.repeat(128)),
    });
    expect(tooMany).toMatchObject({ status: 409, body: { code: 'INSUFFICIENT_QUANTITY' } });
    expect(await books(server, id)).toEqual(before);
    await grantItems(server, id, { cake: 1 });
    const retried = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 2 },
      headers: withKey('x'.repeat(128)),
    });
    expect(retried.status).toBe(200);
    expect(retried.body.sold).toEqual([{ itemId: 'cake', quantity: 2, amount: '4' }]);
  });
});
