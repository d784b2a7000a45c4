import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiErrorBody, createApiClient, errorStatus, type InitDataSource } from '../../src/api/client';
import { TOKEN_KEY } from '../../src/api/session';
import { createMemoryStorage, type KeyValueStorage } from '../../src/lib/storage';

// A tiny auth server: POST /api/auth/login accepts the launch data 'good' and issues a new token each
// time; GET /api/auth/me answers only the latest token. Every request is recorded.

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

let server: Server;
let baseURL: string;
let seen: Seen[] = [];
let issued = 0;
let validToken: string | null = null;
let loginDelayMs = 0;
let meAlways401 = false;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function unauthorized(res: ServerResponse, code: string): void {
  send(res, 401, { statusCode: 401, error: 'Unauthorized', code, message: `rejected: ${code}` });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

const user = {
  id: '1',
  firstName: 'Demo',
  lastName: null,
  username: 'demo',
  photoUrl: null,
  languageCode: 'en',
  balance: 100,
};

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const path = req.url ?? '';
  seen.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });

  if (req.method === 'POST' && path === '/api/auth/login') {
    if (loginDelayMs) await new Promise((r) => setTimeout(r, loginDelayMs));
    if ((body as { initData?: string } | undefined)?.initData !== 'good')
      return unauthorized(res, 'INIT_DATA_INVALID');
    validToken = `token-${++issued}`;
    return send(res, 200, { token: validToken, user });
  }
  if (req.method === 'GET' && path === '/api/auth/me') {
    if (meAlways401 || !validToken || req.headers.authorization !== `Bearer ${validToken}`) {
      return unauthorized(res, 'TOKEN_INVALID');
    }
    return send(res, 200, { user });
  }
  send(res, 404, { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'no route' });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  issued = 0;
  validToken = null;
  loginDelayMs = 0;
  meAlways401 = false;
});

afterEach(() => {
  vi.restoreAllMocks();
});

function client(storage: KeyValueStorage, getInitData: InitDataSource = () => 'good') {
  return createApiClient({ baseURL, storage, getInitData });
}

const logins = () => seen.filter((s) => s.path === '/api/auth/login');
const meCalls = () => seen.filter((s) => s.path === '/api/auth/me');

describe('session start', () => {
  it('logs in once when no token is saved and launch data exists', async () => {
    const storage = createMemoryStorage();
    const api = client(storage);

    await Promise.all([api.startSession(), api.startSession()]);
    await api.startSession();

    expect(logins()).toHaveLength(1);
    expect(logins()[0]?.body).toEqual({ initData: 'good' });
    expect(storage.getItem(TOKEN_KEY)).toBe('token-1');

    // the stored token goes out as a bearer header
    await expect(api.request('/auth/me')).resolves.toEqual({ user });
    expect(meCalls()[0]?.authorization).toBe('Bearer token-1');
  });

  it('holds a call made while the first sign-in is under way until it is over, then sends the new token', async () => {
    loginDelayMs = 150;
    const storage = createMemoryStorage();
    const api = client(storage);
    void api.startSession();
    await expect(api.request('/auth/me')).resolves.toEqual({ user });
    // no 401 and no second sign-in: the call left after the login answered, with its token
    expect(logins()).toHaveLength(1);
    expect(meCalls()).toHaveLength(1);
    expect(meCalls()[0]?.authorization).toBe('Bearer token-1');
    expect(seen.map((s) => s.path)).toEqual(['/api/auth/login', '/api/auth/me']);
  });

  it('does not log in when a token is already saved', async () => {
    const storage = createMemoryStorage({ [TOKEN_KEY]: 'saved' });
    await client(storage).startSession();
    expect(logins()).toHaveLength(0);
    expect(storage.getItem(TOKEN_KEY)).toBe('saved');
  });

  it('does not log in without launch data', async () => {
    const storage = createMemoryStorage();
    await client(storage, () => undefined).startSession();
    expect(seen).toHaveLength(0);
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('ignores a failed login at start', async () => {
    const storage = createMemoryStorage();
    const api = client(storage, () => 'bad');
    await expect(api.startSession()).resolves.toBeUndefined();
    expect(logins()).toHaveLength(1);
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
  });
});

describe('401 handling', () => {
  it('re-logs in once, stores the new token and retries the request', async () => {
    validToken = 'current';
    const storage = createMemoryStorage({ [TOKEN_KEY]: 'expired' });
    const api = client(storage);

    await expect(api.request('/auth/me')).resolves.toEqual({ user });

    expect(seen.map((s) => `${s.method} ${s.path} ${s.authorization ?? '-'}`)).toEqual([
      'GET /api/auth/me Bearer expired',
      'POST /api/auth/login -',
      'GET /api/auth/me Bearer token-1',
    ]);
    expect(storage.getItem(TOKEN_KEY)).toBe('token-1');
  });

  it('also signs in when no token was saved at all', async () => {
    const storage = createMemoryStorage();
    await expect(client(storage).request('/auth/me')).resolves.toEqual({ user });
    expect(meCalls()[0]?.authorization).toBeUndefined();
    expect(logins()).toHaveLength(1);
    expect(storage.getItem(TOKEN_KEY)).toBe('token-1');
  });

  it('passes the original error on and logs "Reauthorization failed" when re-login fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = createMemoryStorage({ [TOKEN_KEY]: 'expired' });
    const api = client(storage, () => 'bad');

    const error = await api.request('/auth/me').then(
      () => null,
      (e: unknown) => e,
    );

    expect(errorStatus(error)).toBe(401);
    // the error of GET /auth/me, not the one of the failed login
    expect(apiErrorBody(error)?.code).toBe('TOKEN_INVALID');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0]?.[0]).toBe('Reauthorization failed');
    expect(errorStatus(logged.mock.calls[0]?.[1])).toBe(401);
    expect(apiErrorBody(logged.mock.calls[0]?.[1])?.code).toBe('INIT_DATA_INVALID');
    expect(logins()).toHaveLength(1);
    expect(meCalls()).toHaveLength(1);
    expect(storage.getItem(TOKEN_KEY)).toBe('expired');
  });

  it('reports a failed re-login when there is no launch data', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = client(createMemoryStorage({ [TOKEN_KEY]: 'expired' }), () => undefined);
    await expect(api.request('/auth/me')).rejects.toSatisfy((e) => errorStatus(e) === 401);
    expect(logged.mock.calls[0]?.[0]).toBe('Reauthorization failed');
    expect(logins()).toHaveLength(0);
  });

  it('retries only once: a second 401 is passed on', async () => {
    meAlways401 = true;
    const api = client(createMemoryStorage({ [TOKEN_KEY]: 'expired' }));
    await expect(api.request('/auth/me')).rejects.toSatisfy((e) => errorStatus(e) === 401);
    expect(logins()).toHaveLength(1);
    expect(meCalls()).toHaveLength(2);
  });

  it('shares one re-login between calls failing at the same time', async () => {
    loginDelayMs = 50;
    validToken = 'current';
    const storage = createMemoryStorage({ [TOKEN_KEY]: 'expired' });
    const api = client(storage);

    const answers = await Promise.all([
      api.request('/auth/me'),
      api.request('/auth/me'),
      api.request('/auth/me'),
    ]);

    expect(answers).toEqual([{ user }, { user }, { user }]);
    expect(logins()).toHaveLength(1);
    expect(meCalls().filter((s) => s.authorization === 'Bearer token-1')).toHaveLength(3);
  });

  it('does not re-login for other errors', async () => {
    const api = client(createMemoryStorage({ [TOKEN_KEY]: 'expired' }));
    await expect(api.request('/nowhere')).rejects.toSatisfy((e) => errorStatus(e) === 404);
    expect(logins()).toHaveLength(0);
  });
});

describe('logout', () => {
  it('removes the token, after which no bearer header is sent', async () => {
    const storage = createMemoryStorage();
    const api = client(storage);
    await api.startSession();
    expect(storage.getItem(TOKEN_KEY)).toBe('token-1');

    api.logout();

    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    await api.http('/auth/me').catch(() => undefined);
    expect(meCalls().at(-1)?.authorization).toBeUndefined();
  });
});
