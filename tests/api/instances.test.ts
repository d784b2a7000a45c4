import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Address } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Battle, BattleSeatResponse } from '../../contract/battles.ts';
import type { Case } from '../../contract/cases.ts';
import { parseTon } from '../../contract/money.ts';
import {
  BOT_TOKEN,
  RATE_LIMITS_OFF,
  createTestDatabase,
  postgresUrl,
  setBalance,
  signLaunchData,
  type TestDatabase,
} from './harness.ts';
import { TON } from './games.ts';
import { startToncenter, transferTx, type ToncenterStandIn } from '../stand-ins/toncenter.ts';
import { waitFor } from '../stand-ins/http.ts';

// Three real server processes on one Postgres database, as a deployment behind a load balancer runs them:
// each background job runs on exactly one of them; the holder is killed with SIGKILL in the middle of its
// work, another instance takes the job over within seconds, and nothing is done twice or lost (TON deposits
// seen through the toncenter stand-in, a battle's payment).

if (!postgresUrl) {
  console.log(
    'several instances: TEST_DATABASE_URL is not set, so these tests are skipped (PGlite is one process)',
  );
}

/** Short leases and polls so the test's wall time stays modest. */
const LEASE_TTL_MS = 3000;
const JOBS = ['ton-watcher', 'battle-clock', 'race-payout', 'idempotency-sweep'] as const;
const WALLET = new Address(0, Buffer.alloc(32, 0x6b));

interface LogLine {
  msg?: string;
  job?: string;
  level?: number;
}

interface Instance {
  name: string;
  process: ChildProcess;
  pid: number;
  origin: string;
  /** the toncenter API key this instance sends: tells its requests apart at the stand-in */
  apiKey: string;
  logs: LogLine[];
  exited: Promise<number | null>;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string },
  ): Promise<{ status: number; body: T }>;
}

const children: Instance[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-instances-'));

afterAll(async () => {
  for (const c of children)
    if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `node server/main.ts` with the given database; resolves once it listens (on a port it picked). */
async function spawnInstance(name: string, env: NodeJS.ProcessEnv): Promise<Instance> {
  const apiKey = `key-${name}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, ...env, TONCENTER_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      logs.push(entry);
      const up = /is up on (http:\/\/\S+)/.exec(entry.msg ?? '');
      if (up) resolve(up[1]!.replace('localhost', '127.0.0.1'));
    });
    void exited.then((code) =>
      reject(new Error(`instance ${name} exited (${code}) before listening: ${stderr.join('')}`)),
    );
  });
  const instance: Instance = {
    name,
    process: child,
    pid: child.pid!,
    origin,
    apiKey,
    logs,
    exited,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${origin}/api${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as never };
    },
  };
  children.push(instance);
  return instance;
}

/** Who holds each job now (holder names are host:pid:random), leases still running only. */
async function holders(db: TestDatabase): Promise<Map<string, number>> {
  const rows = await db.database.db
    .selectFrom('job_leases')
    .select(['name', 'holder'])
    .where('expires_at', '>', new Date())
    .execute();
  return new Map(rows.map((r) => [r.name, Number(r.holder.split(':').at(-2))]));
}

/** The jobs an instance runs now, by its log (taken, and not lost since). */
function running(instance: Instance): Set<string> {
  const jobs = new Set<string>();
  for (const line of instance.logs) {
    if (line.msg?.startsWith('job lease taken')) jobs.add(line.job!);
    if (line.msg?.startsWith('job lease lost')) jobs.delete(line.job!);
  }
  return jobs;
}

/**
 * Waits until each job is held in the database by one of `instances` and run by that one alone (by their
 * logs), and its TON watcher alone polls toncenter; returns the holders.
 */
async function oneRunnerPerJob(
  db: TestDatabase,
  instances: Instance[],
  toncenter: ToncenterStandIn,
): Promise<Map<string, Instance>> {
  return waitFor(
    async () => {
      const held = await holders(db);
      const result = new Map<string, Instance>();
      for (const job of JOBS) {
        const runners = instances.filter((i) => running(i).has(job));
        if (runners.length !== 1 || runners[0]!.pid !== held.get(job)) return false;
        result.set(job, runners[0]!);
      }
      // the last few polls at toncenter all came from the watcher's holder (three pollers would interleave)
      const recent = toncenter.requests.slice(-5).map((r) => r.headers['x-api-key']);
      if (recent.length < 5 || recent.some((key) => key !== result.get('ton-watcher')!.apiKey)) return false;
      return result;
    },
    'one runner per job',
    30_000,
  );
}

describe.skipIf(!postgresUrl)('several instances on one Postgres', () => {
  it('runs each job on one instance; the holder killed mid-job, another goes on: nothing twice, nothing lost', async () => {
    const db = await createTestDatabase();
    const toncenter: ToncenterStandIn = await startToncenter();
    try {
      const env: NodeJS.ProcessEnv = {
        ...RATE_LIMITS_OFF,
        DATABASE_URL: db.url!,
        BOT_TOKEN,
        // no Telegram here: the bot's jobs are leased the same way and tested against its stand-in elsewhere
        TELEGRAM_BOT: 'off',
        JWT_SECRET: 'instances-test-secret-instances-test-secret',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        CLIENT_DIR: join(dataDir, 'no-client'),
        DB_POOL_MAX: '4',
        JOB_LEASE_TTL_MS: String(LEASE_TTL_MS),
        TON_DEPOSIT_ADDRESS: WALLET.toString(),
        TONCENTER_URL: toncenter.url,
        TON_POLL_INTERVAL_MS: '100',
        TON_PAGE_LIMIT: '2',
        BATTLE_ROUND_MS: '8000',
        GAMES_SWEEP_MS: '300',
      };
      const instances = await Promise.all(['a', 'b', 'c'].map((n) => spawnInstance(n, env)));

      // ── one runner per job ──────────────────────────────────────────────────────────────────────────
      const first = await oneRunnerPerJob(db, instances, toncenter);
      const watcher = first.get('ton-watcher')!;

      // ── players, deposits arriving, a battle rolling ────────────────────────────────────────────────
      const api = instances[0]!;
      const players: { id: number; token: string; comment: string }[] = [];
      for (let k = 0; k < 3; k++) {
        const id = 8_300_000 + k;
        const login = await api.call<{ token: string }>('POST', '/auth/login', {
          body: { initData: signLaunchData({ id, first_name: `P${id}` }) },
        });
        expect(login.status).toBe(200);
        const info = await api.call<{ ton: { comment: string } }>('GET', '/deposit/info', {
          token: login.body.token,
        });
        players.push({ id, token: login.body.token, comment: info.body.ton.comment });
      }
      const asServer = { built: { ctx: { db: db.database.db } } };
      for (const p of players) await setBalance(asServer, p.id, 10n * TON);

      const TRANSFERS = 48;
      const expected = new Map(players.map((p) => [p.id, 10n * TON]));
      const hashes = new Set<string>();
      let lt = 51_000_000_000_000n;
      let sent = 0;
      /** n more transfers to the players appear on the chain */
      const feed = (n: number) => {
        for (let k = 0; k < n; k++, sent++) {
          const p = players[sent % players.length]!;
          const value = 1_000_000_000n + BigInt(sent) * 7_000_000n;
          lt += 1000n;
          const tx = transferTx({ to: WALLET, lt, value, comment: p.comment });
          hashes.add(tx.hash);
          expected.set(p.id, expected.get(p.id)! + value);
          toncenter.transactions.push(tx);
        }
      };
      const tonCredits = () =>
        db.database.db
          .selectFrom('ledger')
          .select(['external_id'])
          .where('external_id', 'like', 'ton:%')
          .execute();

      // a battle starts on an instance that does not hold the clock: the holder is to pay it
      const clock = first.get('battle-clock')!;
      const starter = instances.find((i) => i !== clock)!;
      const box = (await starter.call<{ cases: Case[] }>('GET', '/cases')).body.cases.find(
        (c) => c.isActive && !c.isLocked,
      )!;
      const [pa, pb] = players as [(typeof players)[0], (typeof players)[0]];
      const created = await starter.call<BattleSeatResponse>('POST', '/battles', {
        token: pa.token,
        body: { format: '1v1', mode: 'normal', caseIds: [box.id] },
      });
      const battleId = created.body.battle.id;
      const joined = await starter.call<BattleSeatResponse>('POST', `/battles/${battleId}/join`, {
        token: pb.token,
        body: {},
      });
      expect(joined.body.battle.status).toBe('running');
      expected.set(pa.id, expected.get(pa.id)! - parseTon(box.price));
      expected.set(pb.id, expected.get(pb.id)! - parseTon(box.price));

      // half the transfers arrive; once the first are credited (the watcher is paging through the rest)...
      feed(TRANSFERS / 2);
      await waitFor(async () => (await tonCredits()).length >= 6, 'some deposits credited', 30_000);

      // ── SIGKILL the holders mid-job: deposits being credited, the battle rolled and not yet paid ────
      const victims = [...new Set([watcher, clock])];
      const killedAt = Date.now();
      for (const v of victims) v.process.kill('SIGKILL');
      await Promise.all(victims.map((v) => v.exited));
      const creditedAtKill = (await tonCredits()).length;
      const rolled = await db.database.db
        .selectFrom('battles')
        .select('status')
        .where('public_id', '=', battleId)
        .executeTakeFirstOrThrow();
      expect(rolled.status).toBe('rolled');
      feed(TRANSFERS / 2); // and more arrive while no one watches
      const survivors = instances.filter((i) => !victims.includes(i));

      // ── another instance takes every job over within seconds ────────────────────────────────────────
      // (jobs whose holder survived stay where they are)
      const moved = JOBS.filter((job) => victims.includes(first.get(job)!));
      const takeover = new Map<string, number>();
      await waitFor(
        async () => {
          const h = await holders(db);
          for (const job of moved) {
            const pid = h.get(job);
            if (!takeover.has(job) && pid !== undefined && survivors.some((s) => s.pid === pid)) {
              takeover.set(job, Date.now() - killedAt);
            }
          }
          return (
            takeover.size === moved.length && JOBS.every((j) => survivors.some((s) => s.pid === h.get(j)))
          );
        },
        'the takeover of every job',
        30_000,
      );
      console.log(
        `several instances: jobs taken over after SIGKILL in ${moved.map((j) => `${j} ${takeover.get(j)} ms`).join(', ')} ` +
          `(lease ${LEASE_TTL_MS} ms); ${creditedAtKill} of ${TRANSFERS} deposits were credited at the kill`,
      );

      // ── the work goes on: every deposit credited once, the battle paid once ─────────────────────────
      await waitFor(async () => (await tonCredits()).length >= TRANSFERS, 'every deposit credited', 60_000);
      const paid = await waitFor(
        async () => {
          const b = (await survivors[0]!.call<{ battle: Battle }>('GET', `/battles/${battleId}`)).body.battle;
          return b.status === 'finished' && b;
        },
        'the battle to be paid',
        30_000,
      );
      expect(paid.status).toBe('finished');
      await new Promise((r) => setTimeout(r, LEASE_TTL_MS)); // time for anything done twice to show

      const credits = await tonCredits();
      expect(credits).toHaveLength(TRANSFERS);
      expect(new Set(credits.map((c) => c.external_id))).toEqual(
        new Set([...hashes].map((h) => `ton:${Buffer.from(h, 'base64').toString('hex')}`)),
      );
      const skips = await db.database.db.selectFrom('payment_skips').select('external_id').execute();
      expect(skips).toEqual([]);
      for (const p of players) {
        const row = await db.database.db
          .selectFrom('users')
          .select('balance_nano')
          .where('id', '=', BigInt(p.id))
          .executeTakeFirstOrThrow();
        expect(row.balance_nano).toBe(expected.get(p.id));
      }
      // the battle's two items were handed over once: two in the players' inventories, not four
      const items = await db.database.db
        .selectFrom('inventory')
        .select((eb) => eb.fn.sum<number>('quantity').as('n'))
        .where('user_id', 'in', [BigInt(pa.id), BigInt(pb.id)])
        .executeTakeFirstOrThrow();
      expect(Number(items.n)).toBe(2);

      // still one runner per job among the survivors
      await oneRunnerPerJob(db, survivors, toncenter);

      // a graceful stop hands the leases back: what the stopped one held moves to the last one at once
      const last = survivors.at(-1)!;
      const stopping = survivors.filter((s) => s !== last);
      for (const s of stopping) s.process.kill('SIGTERM');
      expect(await Promise.all(stopping.map((s) => s.exited))).toEqual(stopping.map(() => 0));
      await waitFor(
        async () => {
          const h = await holders(db);
          return JOBS.every((j) => h.get(j) === last.pid);
        },
        'the last instance to hold every job',
        10_000,
      );
      last.process.kill('SIGTERM');
      expect(await last.exited).toBe(0);
    } finally {
      await toncenter.close();
      await db.drop();
    }
  }, 240_000);
});
