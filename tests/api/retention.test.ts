import { sign } from '@telegram-apps/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BetProof } from '../../contract/fairness.ts';
import type {
  InviteStateResponse,
  PromoApplyResponse,
  WheelSpinResponse,
  WheelStateResponse,
} from '../../contract/retention.ts';
import type { ProfileResponse } from '../../contract/users.ts';
import { runAdminCli } from '../../server/admin-cli.ts';
import { creditDeposit } from '../../server/payments/credit.ts';
import { payInviteShares } from '../../server/retention/invites.ts';
import { verifyCase, verifyWheel } from '../support/independent-verifier.ts';
import { BOT_TOKEN, createTestDatabase, setBalance, startServer, type TestServer } from './harness.ts';
import { TON, nano } from './games.ts';

// The retention features against the real server and database: the daily wheel (once per 24 h, under
// concurrency and across a restart, recomputed from its proofs), promo codes (every rule, the bonus exact to
// the nanoTON with the deposit), rank rewards (once however the openings cross), invites (linking rules and
// the daily share from the ledger, once).

const ADMIN_KEY = 'retention-admin-key-0123456789';
let nextUser = 8_400_000;

async function player(server: TestServer, balanceTon = 0n, startParam?: string) {
  const id = nextUser++;
  const token = await loginWith(server, id, startParam);
  if (balanceTon > 0n) await setBalance(server, id, balanceTon * TON);
  return { id, token };
}

async function loginWith(server: TestServer, id: number, startParam?: string): Promise<string> {
  const initData = sign(
    { user: { id, first_name: `P${id}` }, ...(startParam ? { start_param: startParam } : {}) } as Parameters<
      typeof sign
    >[0],
    BOT_TOKEN,
    new Date(),
  );
  const res = await server.call<{ token: string }>('POST', '/auth/login', { body: { initData } });
  expect(res.status).toBe(200);
  return res.body.token;
}

/** The ledger adds up to the balance, row by row. */
async function expectBooksBalance(server: TestServer, id: number) {
  const db = server.built.ctx.db;
  const rows = await db
    .selectFrom('ledger')
    .select(['delta_nano', 'balance_after_nano'])
    .where('user_id', '=', BigInt(id))
    .orderBy('id')
    .execute();
  let running = 0n;
  for (const r of rows) {
    running += r.delta_nano;
    expect(r.balance_after_nano).toBe(running);
  }
  const user = await db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', BigInt(id))
    .executeTakeFirstOrThrow();
  expect(user.balance_nano).toBe(running);
}

const ledgerOf = (server: TestServer, id: number, kind: string) =>
  server.built.ctx.db
    .selectFrom('ledger')
    .selectAll()
    .where('user_id', '=', BigInt(id))
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();

const TEN_CENT_WHEEL = Array.from({ length: 12 }, (_, i) => `ton:0.1:${i + 1}`).join(',');
const CASE_WHEEL = Array.from({ length: 12 }, (_, i) => (i % 2 ? 'case:starter:5' : 'none:1')).join(',');

describe('the daily wheel', { timeout: 120_000 }, () => {
  it('spins once per 24 h under 50 concurrent requests and across a restart', async () => {
    const shared = await createTestDatabase();
    let server = await startServer({ database: shared.database, env: { WHEEL_PRIZES: TEN_CENT_WHEEL } });
    try {
      const { id, token } = await player(server);
      const before = await server.call<WheelStateResponse>('GET', '/wheel', { token });
      expect(before.status).toBe(200);
      expect(before.body.available).toBe(true);
      expect(before.body.segments).toHaveLength(12);
      expect(before.body.segments.every((s) => s.kind === 'ton' && s.amount === '0.1')).toBe(true);

      const answers = await Promise.all(
        Array.from({ length: 50 }, () => server.call<WheelSpinResponse>('POST', '/wheel/spin', { token })),
      );
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(409);
        expect((a.body as unknown as { code: string }).code).toBe('WHEEL_COOLDOWN');
      }
      const spin = ok[0]!.body;
      expect(spin.prize).toMatchObject({ kind: 'ton', amount: '0.1' });
      expect(spin.balance).toBe('0.1');
      expect(spin.available).toBe(false);
      const next = Date.parse(spin.nextSpinAt!) - Date.parse(spin.now);
      expect(next).toBe(86_400_000);
      const paid = await ledgerOf(server, id, 'wheel_prize');
      expect(paid).toHaveLength(1);
      expect(paid[0]!.external_id).toBe(`wheel:daily:${id}:1`);
      expect(paid[0]!.delta_nano).toBe(nano('0.1'));

      // a restart remembers the spin
      await server.close();
      server = await startServer({ database: shared.database, env: { WHEEL_PRIZES: TEN_CENT_WHEEL } });
      const after = await server.call<WheelStateResponse>('GET', '/wheel', { token });
      expect(after.body.available).toBe(false);
      expect(after.body.nextSpinAt).toBe(spin.nextSpinAt);
      const again = await server.call('POST', '/wheel/spin', { token });
      expect(again.status).toBe(409);

      // 24 hours later (the spin moved back a day), the next daily spin comes, once
      await server.built.ctx.db
        .updateTable('wheel_spins')
        .set({ created_at: new Date(Date.now() - 86_400_001) })
        .where('user_id', '=', BigInt(id))
        .execute();
      const later = await Promise.all(
        Array.from({ length: 10 }, () => server.call<WheelSpinResponse>('POST', '/wheel/spin', { token })),
      );
      expect(later.filter((a) => a.status === 200)).toHaveLength(1);
      const paidAgain = await ledgerOf(server, id, 'wheel_prize');
      expect(paidAgain.map((r) => r.external_id)).toEqual([`wheel:daily:${id}:1`, `wheel:daily:${id}:2`]);
      await expectBooksBalance(server, id);
    } finally {
      await server.close();
      await shared.drop();
    }
  });

  it('replays an answer for the same Idempotency-Key instead of refusing it', async () => {
    const server = await startServer({ env: { WHEEL_PRIZES: TEN_CENT_WHEEL } });
    try {
      const { token } = await player(server);
      const headers = { 'idempotency-key': 'spin-intent-1' };
      const first = await server.call<WheelSpinResponse>('POST', '/wheel/spin', { token, headers });
      const retry = await server.call<WheelSpinResponse>('POST', '/wheel/spin', { token, headers });
      expect(first.status).toBe(200);
      expect(retry.status).toBe(200);
      expect(retry.body.betId).toBe(first.body.betId);
    } finally {
      await server.close();
    }
  });

  it('opens a prize case for free and every roll recomputes independently from its proof', async () => {
    const server = await startServer({ env: { WHEEL_PRIZES: CASE_WHEEL } });
    try {
      const { id, token } = await player(server);
      const spins: WheelSpinResponse[] = [];
      for (let day = 0; day < 6; day++) {
        const res = await server.call<WheelSpinResponse>('POST', '/wheel/spin', { token });
        expect(res.status).toBe(200);
        spins.push(res.body);
        await server.built.ctx.db
          .updateTable('wheel_spins')
          .set({ created_at: new Date(Date.now() - 86_400_001) })
          .where('user_id', '=', BigInt(id))
          .execute();
      }
      const cases = spins.filter((s) => s.prize.kind === 'case');
      const inventory = await server.built.ctx.db
        .selectFrom('inventory')
        .select(['item_id', 'quantity'])
        .where('user_id', '=', BigInt(id))
        .execute();
      expect(inventory.reduce((n, r) => n + r.quantity, 0)).toBe(cases.length);
      for (const s of cases) expect(s.prize.item).not.toBeNull();
      expect(await ledgerOf(server, id, 'wheel_prize')).toHaveLength(0);

      // history lists the spins (kind wheel) and the free openings (kind case)
      const history = await server.call<{ total: number; bets: { kind: string; betId: string }[] }>(
        'GET',
        '/fairness/history?limit=100',
        { token },
      );
      expect(history.body.total).toBe(spins.length + cases.length);
      expect(
        history.body.bets
          .filter((b) => b.kind === 'wheel')
          .map((b) => b.betId)
          .sort(),
      ).toEqual(spins.map((s) => s.betId).sort());

      const rotate = await server.call('POST', '/fairness/rotate', { token });
      expect(rotate.status).toBe(200);
      for (const s of spins) {
        const proof = await server.call<BetProof>('GET', `/fairness/bets/${s.betId}`);
        expect(proof.status).toBe(200);
        const bet = proof.body;
        if (bet.kind !== 'wheel') throw new Error('expected a wheel proof');
        const mine = verifyWheel(bet.serverSeed!, bet.clientSeed, bet.nonce, bet.weightTable.text);
        expect(mine.tableHash).toBe(s.proof.tableHash);
        expect(Number(mine.roll)).toBe(s.proof.roll);
        expect(mine.segment).toBe(s.segment);
        expect(bet.segment).toBe(s.segment);
        if (s.prize.openingBetId) {
          const free = await server.call<BetProof>('GET', `/fairness/bets/${s.prize.openingBetId}`);
          const opening = free.body;
          if (opening.kind !== 'case') throw new Error('expected a case proof');
          expect(opening.case.price).toBe('0');
          const drawn = verifyCase(
            opening.serverSeed!,
            opening.clientSeed,
            opening.nonce,
            opening.weightTable!.text,
          );
          expect(drawn.itemId).toBe(s.prize.item!.id);
          expect(opening.nonce).toBe(bet.nonce + 1);
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe('promo codes', { timeout: 120_000 }, () => {
  let server: TestServer;
  const admin = { 'x-admin-key': ADMIN_KEY };
  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_KEY } });
  });
  afterAll(() => server.close());

  const deposit = (id: number, amountNano: bigint, externalId: string) =>
    creditDeposit(server.built.ctx, { userId: BigInt(id), amountNano, method: 'ton', externalId });

  it('GIFTBOOST +7% is there by default and pays exactly 7% of the next deposit, once, with it', async () => {
    const { id, token } = await player(server);
    const applied = await server.call<PromoApplyResponse>('POST', '/promo/apply', {
      token,
      body: { code: 'giftboost' },
    });
    expect(applied.status).toBe(200);
    expect(applied.body.pending).toMatchObject({ code: 'GIFTBOOST', percent: 7 });
    const state = await server.call<{ pending: unknown }>('GET', '/promo', { token });
    expect(state.body.pending).toMatchObject({ code: 'GIFTBOOST' });

    const amount = nano('12.345678901');
    expect(await deposit(id, amount, `ton:promo-${id}`)).toBe(true);
    expect(await deposit(id, amount, `ton:promo-${id}`)).toBe(false); // a replay credits nothing
    const bonus = (amount * 700n) / 10_000n;
    expect(bonus).toBe(864_197_523n);
    const rows = await server.built.ctx.db
      .selectFrom('ledger')
      .select(['kind', 'delta_nano', 'external_id'])
      .where('user_id', '=', BigInt(id))
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.kind, r.delta_nano, r.external_id])).toEqual([
      ['deposit_ton', amount, `ton:promo-${id}`],
      ['promo_bonus', bonus, `promo:ton:promo-${id}`],
    ]);
    // the next deposit carries no bonus, and the code cannot be used again
    await deposit(id, TON, `ton:promo2-${id}`);
    expect(await ledgerOf(server, id, 'promo_bonus')).toHaveLength(1);
    const twice = await server.call('POST', '/promo/apply', { token, body: { code: 'GIFTBOOST' } });
    expect(twice.status).toBe(409);
    expect((twice.body as { code: string }).code).toBe('PROMO_ALREADY_USED');
    await expectBooksBalance(server, id);
  });

  it('caps a percent bonus at maxBonus and refuses unknown, inactive and expired codes', async () => {
    const put = await server.call('PUT', '/admin/promo-codes/CAPPED', {
      headers: admin,
      body: { kind: 'deposit_percent', percent: 50, maxBonus: '2' },
    });
    expect(put.status).toBe(200);
    const { id, token } = await player(server);
    expect((await server.call('POST', '/promo/apply', { token, body: { code: 'CAPPED' } })).status).toBe(200);
    await deposit(id, 10n * TON, `ton:cap-${id}`);
    expect((await ledgerOf(server, id, 'promo_bonus')).map((r) => r.delta_nano)).toEqual([2n * TON]);

    const unknown = await server.call('POST', '/promo/apply', { token, body: { code: 'NOPE123' } });
    expect(unknown.status).toBe(404);
    await server.call('PUT', '/admin/promo-codes/OFFCODE', {
      headers: admin,
      body: { kind: 'credit', amount: '1', active: false },
    });
    const off = await server.call('POST', '/promo/apply', { token, body: { code: 'OFFCODE' } });
    expect((off.body as { code: string }).code).toBe('PROMO_INACTIVE');
    await server.call('PUT', '/admin/promo-codes/OLDCODE', {
      headers: admin,
      body: { kind: 'credit', amount: '1', expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    const old = await server.call('POST', '/promo/apply', { token, body: { code: 'OLDCODE' } });
    expect(old.status).toBe(409);
    expect((old.body as { code: string }).code).toBe('PROMO_EXPIRED');
    expect(await ledgerOf(server, id, 'promo_bonus')).toHaveLength(1);
    // the operator routes need the key
    expect((await server.call('GET', '/admin/promo-codes')).status).toBe(401);
    const bad = await server.call('PUT', '/admin/promo-codes/BADONE', {
      headers: admin,
      body: { kind: 'credit', percent: 5 },
    });
    expect(bad.status).toBe(400);
  });

  it('the command line creates, lists and switches off codes on the database', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const db = server.built.ctx.db;
    const args = ['promo', 'set', 'cliboost', 'percent', '12.5', '--max', '3', '--uses', '2'];
    expect(await runAdminCli(args, db, io)).toBe(0);
    expect(out.at(-1)).toContain('CLIBOOST');
    expect(out.at(-1)).toContain('+12.5% of the next deposit (at most 3 TON)');
    expect(await runAdminCli(['promo', 'list'], db, io)).toBe(0);
    expect(out.some((l) => l.startsWith('GIFTBOOST') && l.includes('+7%'))).toBe(true);
    expect(await runAdminCli(['promo', 'set', 'CLIBOOST', 'percent', '12.5', '--off'], db, io)).toBe(0);
    const { token } = await player(server);
    const off = await server.call('POST', '/promo/apply', { token, body: { code: 'CLIBOOST' } });
    expect((off.body as { code: string }).code).toBe('PROMO_INACTIVE');
    expect(await runAdminCli(['promo', 'set', 'X', 'bonus', '1'], db, io)).toBe(2);
    expect(await runAdminCli(['promo', 'set', 'BADPCT', 'percent', '1.234'], db, io)).toBe(1);
    expect(err.at(-1)).toContain('PROMO_INPUT_INVALID');
  });

  it('does not pay a waiting bonus whose code expired before the deposit landed', async () => {
    await server.call('PUT', '/admin/promo-codes/SOONGONE', {
      headers: admin,
      body: { kind: 'deposit_percent', percent: 10, expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    const { id, token } = await player(server);
    expect((await server.call('POST', '/promo/apply', { token, body: { code: 'SOONGONE' } })).status).toBe(
      200,
    );
    await server.built.ctx.db
      .updateTable('promo_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('code', '=', 'SOONGONE')
      .execute();
    await deposit(id, 5n * TON, `ton:late-${id}`);
    expect(await ledgerOf(server, id, 'promo_bonus')).toHaveLength(0);
    const row = await server.built.ctx.db
      .selectFrom('promo_redemptions')
      .select('status')
      .where('user_id', '=', BigInt(id))
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
  });

  it('a fixed credit code: once per player, and a global limit no race can pass', async () => {
    const put = await server.call('PUT', '/admin/promo-codes/FIVEONLY', {
      headers: admin,
      body: { kind: 'credit', amount: '1.5', maxUses: 5 },
    });
    expect(put.status).toBe(200);
    const players = await Promise.all(Array.from({ length: 20 }, () => player(server)));
    const answers = await Promise.all(
      players.map((p) =>
        server.call<PromoApplyResponse>('POST', '/promo/apply', {
          token: p.token,
          body: { code: 'FIVEONLY' },
        }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(5);
    for (const a of ok) expect(a.body).toMatchObject({ credited: '1.5', balance: '1.5' });
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect((a.body as unknown as { code: string }).code).toBe('PROMO_EXHAUSTED');
    }
    const code = await server.built.ctx.db
      .selectFrom('promo_codes')
      .select('uses')
      .where('code', '=', 'FIVEONLY')
      .executeTakeFirstOrThrow();
    expect(code.uses).toBe(5);
    const credits = await server.built.ctx.db
      .selectFrom('ledger')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('external_id', 'like', 'promo:FIVEONLY:%')
      .executeTakeFirstOrThrow();
    expect(Number(credits.n)).toBe(5);
    // the same player twice at once: one credit
    const put2 = await server.call('PUT', '/admin/promo-codes/ONCEEACH', {
      headers: admin,
      body: { kind: 'credit', amount: '0.3' },
    });
    expect(put2.status).toBe(200);
    const { id, token } = await player(server);
    const both = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.call('POST', '/promo/apply', { token, body: { code: 'ONCEEACH' } }),
      ),
    );
    expect(both.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await ledgerOf(server, id, 'promo_bonus')).toHaveLength(1);
    await expectBooksBalance(server, id);
  });
});

/** The default rank table (1:spin,5:ton:0.25,15:case:starter,...): the harness turns rewards off elsewhere. */
const RANK_TABLE = '';

describe('rank rewards', { timeout: 120_000 }, () => {
  it('grants each rank once, however many openings cross the thresholds at once', async () => {
    const server = await startServer({ env: { RANK_TABLE } });
    try {
      const { id, token } = await player(server, 100n);
      // 10 x3 openings at once: 30 openings cross 1, 5 and 15
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          server.call('POST', '/cases/open-multiple', { token, body: { caseId: 'starter', amount: 3 } }),
        ),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const db = server.built.ctx.db;
      const rewards = await db
        .selectFrom('rank_rewards')
        .select(['level', 'reward_kind'])
        .where('user_id', '=', BigInt(id))
        .orderBy('level')
        .execute();
      expect(rewards).toEqual([
        { level: 2, reward_kind: 'spin' },
        { level: 3, reward_kind: 'ton' },
        { level: 4, reward_kind: 'case' },
      ]);
      const ton = await ledgerOf(server, id, 'rank_reward');
      expect(ton.map((r) => [r.delta_nano, r.external_id])).toEqual([[nano('0.25'), `rank:${id}:3`]]);
      const free = await db
        .selectFrom('free_openings')
        .selectAll()
        .where('user_id', '=', BigInt(id))
        .execute();
      expect(free).toHaveLength(1);
      expect(free[0]!.source).toBe('rank');
      await expectBooksBalance(server, id);

      // more openings past those thresholds grant nothing more
      await server.call('POST', '/cases/open-multiple', { token, body: { caseId: 'starter', amount: 3 } });
      expect(await ledgerOf(server, id, 'rank_reward')).toHaveLength(1);

      const profile = await server.call<ProfileResponse>('GET', '/users/profile', { token });
      expect(profile.body.level).toMatchObject({ level: 4, rank: 'Case Master' });
      expect(profile.body.ranks.filter((r) => r.granted).map((r) => r.level)).toEqual([2, 3, 4]);
      expect(profile.body.ranks[4]).toMatchObject({ reached: false, reward: { kind: 'ton', amount: '1' } });

      // the rank's free spin: the daily one first, then the rank's, then none
      const wheel = await server.call<WheelStateResponse>('GET', '/wheel', { token });
      expect(wheel.body.extraSpins).toBe(1);
      const first = await server.call<WheelSpinResponse>('POST', '/wheel/spin', { token });
      const second = await server.call<WheelSpinResponse>('POST', '/wheel/spin', { token });
      const third = await server.call('POST', '/wheel/spin', { token });
      expect([first.body.source, second.body.source, third.status]).toEqual(['daily', 'rank', 409]);
      expect(second.body.extraSpins).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('invites', { timeout: 120_000 }, () => {
  it('links a new player to the inviter once, never oneself or an existing player', async () => {
    const server = await startServer();
    try {
      const inviter = await player(server);
      const other = await player(server);
      const invitee = await player(server, 0n, `ref_${inviter.id}`);
      // signing in again with another link changes nothing
      await loginWith(server, invitee.id, `ref_${other.id}`);
      // an existing player opening the link is not linked
      await loginWith(server, other.id, `ref_${inviter.id}`);
      // one's own link, an unknown inviter and a malformed parameter link nobody
      const selfId = nextUser++;
      await loginWith(server, selfId, `ref_${selfId}`);
      await player(server, 0n, 'ref_999999999');
      await player(server, 0n, 'ref_abc');
      const links = await server.built.ctx.db.selectFrom('invites').selectAll().execute();
      expect(links.map((l) => [Number(l.invitee_id), Number(l.inviter_id)])).toEqual([
        [invitee.id, inviter.id],
      ]);

      const state = await server.call<InviteStateResponse>('GET', '/invites', { token: inviter.token });
      expect(state.body).toMatchObject({ invitees: 1, earned: '0', share: 0.2 });
      expect(new URL(state.body.link).searchParams.get('startapp')).toBe(`ref_${inviter.id}`);
    } finally {
      await server.close();
    }
  });

  it('credits the daily share of the invitees’ house edge from the ledger, once, also across a restart', async () => {
    const shared = await createTestDatabase();
    const env = { TWA_RETURN_URL: 'https://t.me/gift_bot/app' };
    let server = await startServer({ database: shared.database, env });
    try {
      const inviter = await player(server);
      const a = await player(server, 50n, `ref_${inviter.id}`);
      const b = await player(server, 50n, `ref_${inviter.id}`);
      const stranger = await player(server, 50n);
      for (const p of [a, a, b, stranger]) {
        const res = await server.call('POST', '/cases/open', { token: p.token, body: { caseId: 'sweet' } });
        expect(res.status).toBe(200);
      }
      const db = server.built.ctx.db;
      // the day ends: the job's pass of tomorrow pays today's share
      const tomorrow = new Date(Date.now() + 86_400_000);
      const day = Math.floor(Date.now() / 86_400_000);
      const wagers = await db
        .selectFrom('ledger')
        .select('delta_nano')
        .where('kind', '=', 'case_open')
        .where('user_id', 'in', [BigInt(a.id), BigInt(b.id)])
        .execute();
      const wagered = wagers.reduce((s, r) => s - r.delta_nano, 0n);
      expect(wagered).toBe(3n * TON); // three openings of the 1 TON case
      // share 0.2 of the edge (1 − 0.9): 3 TON × 0.1 × 0.2 = 0.06 TON
      const expected = (wagered * 100_000n * 200_000n) / 1_000_000_000_000n;
      expect(expected).toBe(nano('0.06'));

      expect(await payInviteShares(db, server.config, tomorrow)).toBe(1);
      expect(await payInviteShares(db, server.config, tomorrow)).toBe(0);
      await server.close();
      server = await startServer({ database: shared.database, env });
      expect(await payInviteShares(server.built.ctx.db, server.config, tomorrow)).toBe(0);
      const credits = await ledgerOf(server, inviter.id, 'invite_share');
      expect(credits.map((c) => [c.delta_nano, c.external_id])).toEqual([
        [expected, `invite:${inviter.id}:${day}`],
      ]);
      const state = await server.call<InviteStateResponse>('GET', '/invites', { token: inviter.token });
      expect(state.body).toMatchObject({ invitees: 2, earned: '0.06' });
      expect(state.body.link).toBe(`https://t.me/gift_bot/app?startapp=ref_${inviter.id}`);
    } finally {
      await server.close();
      await shared.drop();
    }
  });
});
