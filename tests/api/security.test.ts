import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TON_CONNECT_BRIDGES } from '../../server/security.ts';
import { startServer, type TestServer } from './harness.ts';

// Security headers on every kind of answer (API JSON, errors, the app's pages, hashed bundles, art, the TON
// Connect manifest), with a CSP that fits a Telegram Mini App, and HSTS only when served over https.

/** The CSP header as directive → sources. */
function csp(header: string | null): Map<string, string[]> {
  expect(header, 'Content-Security-Policy').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

let clientDir: string;
beforeAll(() => {
  // a built client in miniature: the list's page, every other page, a hashed bundle
  clientDir = mkdtempSync(join(tmpdir(), 'giftcases-client-'));
  mkdirSync(join(clientDir, 'static'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><title>list</title><link rel="preload" as="image">',
  );
  writeFileSync(join(clientDir, 'app.html'), '<!doctype html><title>page</title>');
  writeFileSync(join(clientDir, 'static', 'index-abc.js'), 'export {};');
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('security headers', { timeout: 60_000 }, () => {
  it('go out on API answers, errors, pages, bundles, art and the manifest', async () => {
    server = await startServer({ config: { clientDir } });
    const token = await server.login();
    const paths: [string, number, RequestInit?][] = [
      ['/api/config', 200],
      ['/api/users/profile', 200, { headers: { authorization: `Bearer ${token}` } }],
      ['/api/users/profile', 401],
      ['/api/no-such-route', 404],
      [
        '/api/cases/open',
        400,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' },
      ],
      ['/', 200],
      ['/profile', 200],
      ['/static/index-abc.js', 200],
      ['/assets/cases/starter.svg', 200],
      ['/tonconnect-manifest.json', 200],
    ];
    for (const [path, status, init] of paths) {
      const res = await fetch(server.baseUrl + path, init);
      expect(res.status, path).toBe(status);
      const h = res.headers;
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('referrer-policy'), path).toBe('no-referrer');
      // served over plain http here: no HSTS (it would pin a test or dev host to https)
      expect(h.get('strict-transport-security'), path).toBeNull();
      // the CSP, not X-Frame-Options, says who may frame the app (XFO would keep Telegram Web out)
      expect(h.get('x-frame-options'), path).toBeNull();
      expect(h.get('cross-origin-resource-policy'), path).toBe('cross-origin');
      const policy = csp(h.get('content-security-policy'));
      expect(policy.get('frame-ancestors'), path).toEqual([
        "'self'",
        'https://web.telegram.org',
        'https://*.telegram.org',
      ]);
    }
  });

  it('allow the app, its sockets and TON Connect, and no inline or evaluated script', async () => {
    server = await startServer({ config: { clientDir } });
    const policy = csp((await fetch(`${server.baseUrl}/profile`)).headers.get('content-security-policy'));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    const connect = policy.get('connect-src')!;
    expect(connect).toContain("'self'");
    expect(connect).toContain('https://config.ton.org'); // the wallets list
    for (const bridge of [
      'https://bridge.tonapi.io',
      'https://connect.tonhubapi.com',
      'https://walletbot.me',
    ])
      expect(connect).toContain(bridge);
    expect(connect).toEqual(expect.arrayContaining([...TON_CONNECT_BRIDGES]));
    // no wildcard source anywhere that would allow any host for scripts or connections
    expect([...policy.get('script-src')!, ...connect].some((s) => s === '*' || s === 'https:')).toBe(false);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    // the page for every route but the list is the one without the list's picture preloads
    expect(await (await fetch(`${server.baseUrl}/inventory`)).text()).toContain('<title>page</title>');
    expect(await (await fetch(`${server.baseUrl}/`)).text()).toContain('<title>list</title>');
  });

  it('add HSTS and the wss:// origin of the public URL when it is https', async () => {
    server = await startServer({ config: { clientDir }, env: { PUBLIC_URL: 'https://cases.example/' } });
    const res = await fetch(`${server.baseUrl}/api/config`);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const policy = csp(res.headers.get('content-security-policy'));
    expect(policy.get('connect-src')).toContain('wss://cases.example');
    expect(policy.has('upgrade-insecure-requests')).toBe(true);
    await server.close();

    server = await startServer({ config: { clientDir }, env: { PUBLIC_URL: 'http://cases.example:8080' } });
    const plain = await fetch(`${server.baseUrl}/api/config`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(csp(plain.headers.get('content-security-policy')).get('connect-src')).toContain(
      'ws://cases.example:8080',
    );
  });
});

describe('text Postgres cannot store (NUL) is refused at the edge', { timeout: 60_000 }, () => {
  it('in a path parameter, a query string or a JSON body: 400 INVALID_TEXT, nothing changed', async () => {
    server = await startServer();
    const token = await server.login({ id: 940001 });
    const auth = { authorization: `Bearer ${token}` };
    const before = await server.call<{ balance: string }>('GET', '/deposit/balance', { token });
    const attempts = [
      server.call('GET', '/fairness/bets/abc%00def'),
      server.call('GET', '/fairness/history?page=1&limit=10&x=%00'),
      server.call('PUT', '/fairness/client-seed', { token, body: { clientSeed: 'seed\u0000' } }),
      server.call('POST', '/cases/open', { token, body: { caseId: 'starter\u0000' }, headers: auth }),
      server.call('POST', '/deposit/cryptobot-invoice', { token, body: { amount: '1', ['k\u0000']: 1 } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_TEXT' });
    }
    const after = await server.call<{ balance: string }>('GET', '/deposit/balance', { token });
    expect(after.body.balance).toBe(before.body.balance);
    const seeds = await server.call<{ clientSeed: string }>('GET', '/fairness', { token });
    expect(seeds.body.clientSeed).not.toContain('\u0000');
  });
});

describe('a TON amount in the configuration', { timeout: 60_000 }, () => {
  it('starts the demo with exactly DEMO_BALANCE_TON=3.97 (it once ended the start with a BigInt error)', async () => {
    server = await startServer({ env: { BOT_TOKEN: '', DEMO_BALANCE_TON: '3.97' } });
    expect(server.built.ctx.demo).toBe(true);
    const demo = await server.built.ctx.db
      .selectFrom('users')
      .select('balance_nano')
      .where('username', '=', 'demo_player')
      .executeTakeFirstOrThrow();
    expect(demo.balance_nano).toBe(3_970_000_000n);
  });
});
