import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestDatabase, signLaunchData, startServer, BOT_TOKEN, type TestServer } from './harness.ts';

const JWT_SECRET = 'test-secret-test-secret-test-secret';

async function countUsers(server: TestServer): Promise<number> {
  const row = await server.built.ctx.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('sign-in and session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('logs in with launch data, then reads the user, balance and profile with the token', async () => {
    const initData = signLaunchData({
      id: 777001,
      first_name: 'Ivan',
      username: 'ivan',
      language_code: 'ru',
    });
    const login = await server.call<{ token: string; user: Record<string, unknown> }>('POST', '/auth/login', {
      body: { initData },
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual({
      id: '777001',
      firstName: 'Ivan',
      lastName: null,
      username: 'ivan',
      photoUrl: null,
      languageCode: 'ru',
      balance: '0',
    });
    const token = login.body.token;
    const me = await server.call('GET', '/auth/me', { token });
    expect(me).toEqual({ status: 200, body: { user: login.body.user } });
    expect(await server.call('GET', '/deposit/balance', { token })).toEqual({
      status: 200,
      body: { balance: '0' },
    });
    expect(await server.call('GET', '/users/profile', { token })).toMatchObject({
      status: 200,
      body: { stats: { openingsCount: 0 } },
    });
  });

  it('updates the stored profile on a later sign-in instead of creating a second user', async () => {
    const before = await countUsers(server);
    await server.login({ id: 777002, first_name: 'Old' });
    const token = await server.login({ id: 777002, first_name: 'New', username: 'renamed' });
    const me = await server.call<{ user: { firstName: string; username: string } }>('GET', '/auth/me', {
      token,
    });
    expect(me.body.user.firstName).toBe('New');
    expect(me.body.user.username).toBe('renamed');
    expect(await countUsers(server)).toBe(before + 1);
  });

  it('refuses launch data signed with another bot token, changed, or too old', async () => {
    const before = await countUsers(server);
    const other = signLaunchData({ id: 777003 }, '999:another_token_entirely_different_xx');
    const changed = signLaunchData({ id: 777003, first_name: 'Eve' }).replace('Eve', 'Evil');
    const old = signLaunchData({ id: 777003 }, BOT_TOKEN, new Date(Date.now() - 25 * 3600 * 1000));
    for (const [initData, code] of [
      [other, 'INIT_DATA_HASH_INVALID'],
      [changed, 'INIT_DATA_HASH_INVALID'],
      [old, 'INIT_DATA_EXPIRED'],
      ['user=%7B%7D&auth_date=1', 'INIT_DATA_HASH_MISSING'],
    ] as const) {
      const res = await server.call('POST', '/auth/login', { body: { initData } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code });
      expect(typeof res.body.message).toBe('string');
    }
    expect(await countUsers(server)).toBe(before);
  });

  it('answers 401 with a JSON body for a missing, forged, malformed or expired token', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('777001')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-server-secret-at-all-000000'));
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('777001')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(JWT_SECRET));
    const unknownUser = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('123456789')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET));
    const cases: [Record<string, string>, string][] = [
      [{}, 'TOKEN_MISSING'],
      [{ authorization: `Bearer ${forged}` }, 'TOKEN_INVALID'],
      [{ authorization: 'Bearer not.a.jwt' }, 'TOKEN_INVALID'],
      [{ authorization: 'Basic abc' }, 'TOKEN_MISSING'],
      [{ authorization: `Bearer ${expired}` }, 'TOKEN_EXPIRED'],
      [{ authorization: `Bearer ${unknownUser}` }, 'USER_UNKNOWN'],
    ];
    for (const path of ['/auth/me', '/deposit/balance', '/users/profile']) {
      for (const [headers, code] of cases) {
        const res = await server.call('GET', path, { headers });
        expect(res.status, `${path} ${code}`).toBe(401);
        expect(res.body).toMatchObject({ statusCode: 401, code });
      }
    }
  });

  it('refuses malformed JSON, missing fields, wrong types, unknown fields and oversized bodies with 4xx JSON', async () => {
    const before = await countUsers(server);
    const bad: { opts: Parameters<TestServer['call']>[2]; status: number; code: string }[] = [
      { opts: { rawBody: '{"initData": ' }, status: 400, code: 'INVALID_JSON' },
      { opts: { body: {} }, status: 400, code: 'VALIDATION_ERROR' },
      { opts: { body: { initData: 42 } }, status: 400, code: 'VALIDATION_ERROR' },
      { opts: { body: { initData: ['a'] } }, status: 400, code: 'VALIDATION_ERROR' },
      { opts: { body: { initData: '' } }, status: 400, code: 'VALIDATION_ERROR' },
      {
        opts: { body: { initData: signLaunchData({ id: 777004 }), admin: true } },
        status: 400,
        code: 'VALIDATION_ERROR',
      },
      {
        opts: { rawBody: '<initData/>', headers: { 'content-type': 'application/xml' } },
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      {
        opts: { rawBody: 'initData=x', headers: { 'content-type': 'text/plain' } },
        status: 400,
        code: 'VALIDATION_ERROR',
      },
      { opts: { body: { initData: 'x'.repeat(70 * 1024) } }, status: 413, code: 'BODY_TOO_LARGE' },
    ];
    for (const { opts, status, code } of bad) {
      const res = await server.call('POST', '/auth/login', opts);
      expect(res.status, code).toBe(status);
      expect(res.body).toMatchObject({ statusCode: status, code });
      expect(typeof (res.body as { message: unknown }).message).toBe('string');
    }
    expect(await countUsers(server)).toBe(before);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.call('GET', '/nope');
    expect(res).toMatchObject({ status: 404, body: { statusCode: 404, code: 'NOT_FOUND' } });
  });

  it('does not serve demo launch data when a bot token is configured', async () => {
    expect((await server.call('GET', '/dev/launch-data')).status).toBe(404);
    expect((await server.call('GET', '/config')).body).toMatchObject({ demo: false });
  });
});

describe('demo mode', () => {
  it('signs launch data for the demo user, who starts with 100 TON granted once', async () => {
    const shared = await createTestDatabase();
    try {
      const first = await startServer({ database: shared.database, env: { BOT_TOKEN: '' } });
      const config = await first.call('GET', '/config');
      expect(config.body).toMatchObject({ demo: true });
      const launch = await first.call<{ initData: string; demo: boolean }>('GET', '/dev/launch-data');
      expect(launch.status).toBe(200);
      expect(launch.body.demo).toBe(true);
      const login = await first.call<{ token: string; user: { firstName: string; balance: number } }>(
        'POST',
        '/auth/login',
        { body: { initData: launch.body.initData } },
      );
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ firstName: 'Demo', balance: '100' });
      // launch data signed with the test bot token is refused: the demo server uses its own generated token
      expect((await first.call('POST', '/auth/login', { body: { initData: signLaunchData() } })).status).toBe(
        401,
      );
      await first.close();

      // a restart on the same database keeps the generated token and does not grant the balance again
      const second = await startServer({ database: shared.database, env: { BOT_TOKEN: '' } });
      const again = await second.call<{ user: { balance: number } }>('POST', '/auth/login', {
        body: { initData: launch.body.initData },
      });
      expect(again.status).toBe(200);
      expect(again.body.user.balance).toBe('100');
      const grants = await second.built.ctx.db
        .selectFrom('ledger')
        .selectAll()
        .where('kind', '=', 'demo_grant')
        .execute();
      expect(grants).toHaveLength(1);
      expect(grants[0]!.delta_nano).toBe(100_000_000_000n);
      await second.close();
    } finally {
      await shared.drop();
    }
  });
});
