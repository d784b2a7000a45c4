import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CasesResponse } from '../../contract/cases.ts';
import { runAdminCli } from '../../server/admin-cli.ts';
import { createTestDatabase, postgresUrl, setBalance, startServer, type TestServer } from './harness.ts';

/** A raw GET (fetch would undo the content coding and hide it), returning headers and body bytes. */
async function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: { headers: Record<string, string>; body: Buffer }): unknown {
  const coding = res.headers['content-encoding'];
  const raw =
    coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body;
  return JSON.parse(raw.toString('utf8'));
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the catalogue from memory', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answers with an ETag, and 304 with no body when the client already has it', async () => {
    const first = await get(`${server.baseUrl}/api/cases`);
    expect(first.status).toBe(200);
    expect(first.headers['etag']).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['vary']?.toLowerCase()).toContain('accept-encoding');
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const body = decode(first) as CasesResponse;
    expect(body.cases.map((c) => c.id)).toContain('starter');
    // the answer from memory is the one the database gives
    const fresh = await server.built.ctx.db.selectFrom('cases').select('id').orderBy('position').execute();
    expect(body.cases.map((c) => c.id)).toEqual(fresh.map((r) => r.id));

    const etag = first.headers['etag']!;
    for (const ifNoneMatch of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const again = await get(`${server.baseUrl}/api/cases`, { 'if-none-match': ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['etag']).toBe(etag);
    }
    const stale = await get(`${server.baseUrl}/api/cases`, { 'if-none-match': 'W/"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(decode(stale)).toEqual(body);

    // one case: its own ETag, the same shape as in the list
    const one = await get(`${server.baseUrl}/api/cases/starter`);
    expect(one.status).toBe(200);
    expect(one.headers['etag']).not.toBe(etag);
    expect(decode(one)).toEqual({ case: body.cases.find((c) => c.id === 'starter') });
    const oneAgain = await get(`${server.baseUrl}/api/cases/starter`, {
      'if-none-match': one.headers['etag']!,
    });
    expect(oneAgain.status).toBe(304);
    // an unknown case is still a JSON 404, and is not remembered as anything
    const missing = await get(`${server.baseUrl}/api/cases/nope`, { 'if-none-match': '*' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ code: 'CASE_NOT_FOUND' });
  });

  it('sends the catalogue brotli or gzip compressed as the client accepts, identity otherwise', async () => {
    const plain = await get(`${server.baseUrl}/api/cases`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = decode(plain);
    const br = await get(`${server.baseUrl}/api/cases`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(decode(br)).toEqual(expected);
    const gz = await get(`${server.baseUrl}/api/cases`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz)).toEqual(expected);
    const refused = await get(`${server.baseUrl}/api/cases`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
    // every coding carries the same validator
    expect(new Set([plain, br, gz].map((r) => r.headers['etag'])).size).toBe(1);
  });

  it('compresses other JSON answers above a small threshold only', async () => {
    // a short answer is not worth a coding
    const small = await get(`${server.baseUrl}/api/health`, { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    // a long answer (a player's opening history) leaves compressed, and says it varies
    const token = await server.login({ id: 830001 });
    await setBalance(server, 830001, 100n * 1_000_000_000n);
    for (let i = 0; i < 5; i++) {
      const opened = await server.call('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 3 },
      });
      expect(opened.status).toBe(200);
    }
    const path = '/api/cases/history';
    const auth = { authorization: `Bearer ${token}` };
    const plain = await get(`${server.baseUrl}${path}`, auth);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    const packed = await get(`${server.baseUrl}${path}`, { ...auth, 'accept-encoding': 'gzip' });
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers['vary']?.toLowerCase()).toContain('accept-encoding');
    expect(packed.body.length).toBeLessThan(plain.body.length);
    expect(decode(packed)).toEqual(decode(plain));
  });

  it('forgets the catalogue when the operator reloads it, and hands out the new one', async () => {
    const before = await get(`${server.baseUrl}/api/cases`);
    const oldBody = decode(before) as CasesResponse;
    const out: string[] = [];
    const code = await runAdminCli(
      ['catalogue', 'reload'],
      server.built.ctx.db,
      { out: (l) => out.push(l), err: (l) => out.push(l) },
      { rtp: 0.8, bus: server.built.ctx.bus },
    );
    expect(code, out.join('\n')).toBe(0);
    const after = await get(`${server.baseUrl}/api/cases`, { 'if-none-match': before.headers['etag']! });
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const newBody = decode(after) as CasesResponse;
    const weights = (b: CasesResponse) => b.cases.find((c) => c.id === 'starter')!.items.map((e) => e.weight);
    expect(weights(newBody)).not.toEqual(weights(oldBody));
    const one = decode(await get(`${server.baseUrl}/api/cases/starter`)) as { case: { items: unknown } };
    expect(one.case).toEqual(newBody.cases.find((c) => c.id === 'starter'));
  });
});

describe.skipIf(!postgresUrl)('the catalogue across instances (Postgres)', () => {
  it('a restart with another RTP and an operator reload reach the other instance', async () => {
    const shared = await createTestDatabase();
    const a = await startServer({ database: shared.database });
    try {
      const etagOf = async (s: TestServer) => (await get(`${s.baseUrl}/api/cases`)).headers['etag']!;
      const first = await etagOf(a);
      expect(await etagOf(a)).toBe(first);
      // another instance comes up with another RTP: it rewrites the weights, and a hears of it
      const b = await startServer({ database: shared.database, env: { RTP: '0.85' } });
      try {
        const second = await etagOf(b);
        expect(second).not.toBe(first);
        await until(async () => (await etagOf(a)) === second, 'instance a to drop its catalogue');
        // instances holding the same catalogue give the same validator: a 304 from either
        const r = await get(`${a.baseUrl}/api/cases`, { 'if-none-match': second });
        expect(r.status).toBe(304);
        await runAdminCli(
          ['catalogue', 'reload'],
          a.built.ctx.db,
          { out: () => {}, err: () => {} },
          { rtp: 0.9, bus: a.built.ctx.bus },
        );
        // updatedAt moves with the weights, so this is a third catalogue, and b picks it up
        const third = await etagOf(a);
        expect([first, second]).not.toContain(third);
        await until(async () => (await etagOf(b)) === third, 'instance b to hear of the reload');
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
      await shared.drop();
    }
  });
});

describe('the built client', () => {
  let server: TestServer;
  let dir: string;
  const script = `console.log(${JSON.stringify('giftcases '.repeat(400))});\n`;
  beforeAll(async () => {
    // a client as the build leaves it: hashed files under static/ with .br and .gz beside them
    dir = mkdtempSync(join(tmpdir(), 'giftcases-client-'));
    mkdirSync(join(dir, 'static'));
    const html = `<!doctype html><html><head><script type="module" src="/static/main-AbC123.js"></script></head><body>${'<p>x</p>'.repeat(300)}</body></html>`;
    for (const [name, text] of [
      ['index.html', html],
      ['static/main-AbC123.js', script],
    ] as const) {
      writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
      writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
    }
    server = await startServer({ config: { clientDir: dir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves hashed files compressed from the build, immutable for a year', async () => {
    for (const [accept, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get(`${server.baseUrl}/static/main-AbC123.js`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['vary']?.toLowerCase()).toContain('accept-encoding');
      const text = (coding === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body)).toString();
      expect(text).toBe(script);
    }
    const plain = await get(`${server.baseUrl}/static/main-AbC123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('serves index.html compressed and never from a stale cache, at / and at app routes', async () => {
    for (const path of ['/', '/profile', '/case/starter']) {
      const res = await get(`${server.baseUrl}${path}`, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
      expect(brotliDecompressSync(res.body).toString(), path).toContain('/static/main-AbC123.js');
    }
    // a missing hashed file is a 404, not the page
    const missing = await get(`${server.baseUrl}/static/gone-XyZ.js`, { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
  });
});
