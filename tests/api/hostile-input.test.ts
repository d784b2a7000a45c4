import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SignJWT } from 'jose';
import { sign } from '@telegram-apps/init-data-node';
import type { RouteInfo } from '../../server/app.ts';
import { BOT_TOKEN, setBalance, startServer, type TestServer } from './harness.ts';
import { grantItems } from './holdings.ts';
import { TON } from './games.ts';

// Property-based hostile input over every route the API registers (each with its contract schemas):
// wrong types, NUL and lone surrogates, huge, negative, fractional and non-finite numbers, oversized and
// broken bodies, forged, expired and future launch data, forged and out-of-range tokens, oversized ids.
// Every answer is below 500 and an error is a JSON error body; a request that breaks its schema is a 4xx;
// and the player's balance, inventory and ledger never change. HOSTILE_RUNS sets the runs per route
// (a long variant: HOSTILE_RUNS=500).

const RUNS = Number(process.env.HOSTILE_RUNS) || 8;
const PLAYER = 950_001;
const JWT_SECRET = 'test-secret-test-secret-test-secret';
const ADMIN_KEY = 'hostile-admin-key-0123456789';
const OTHER_BOT = '7000000009:AAE_some_other_bot_token_for_forgery_x';

let server: TestServer;
const tokens: Record<string, string> = {};

// ── validation as the server does it: strict bodies, coerced query strings and path parameters ─────────
const base = { allErrors: false, useDefaults: true, removeAdditional: false as const, strict: false };
const strictAjv = addFormats.default(new Ajv({ ...base, coerceTypes: false }));
const coercingAjv = addFormats.default(new Ajv({ ...base, coerceTypes: true }));
const compiled = [new Map<unknown, ValidateFunction>(), new Map<unknown, ValidateFunction>()] as const;
function validates(schema: unknown, value: unknown, coerce: boolean): boolean {
  if (schema === undefined) return true;
  const cache = compiled[coerce ? 1 : 0];
  const fn = cache.get(schema) ?? (coerce ? coercingAjv : strictAjv).compile(schema as object);
  cache.set(schema, fn);
  return fn(structuredClone(value));
}

// ── hostile values ─────────────────────────────────────────────────────────────────────────────────────
const nasty = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '%00',
  '../../../etc/passwd',
  "'; DROP TABLE users; --",
  'x'.repeat(5000),
  '1e400',
  '1e20',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1.5',
  '99999999999999999999999',
  '9223372036854775808',
  '-9223372036854775809',
  '0x10',
  'true',
  'null',
  '{}',
  '[]',
];
const hostileString = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 300 }),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, -1, 0, -0, 0.5, 1.5, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e20, 4, 7),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const hostileScalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 3 }) },
);

/** Property names of an object schema (TypeBox: `properties`; a union: every branch's). */
function propertyNames(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as { properties?: Record<string, unknown>; anyOf?: unknown[]; oneOf?: unknown[] };
  const own = s.properties ? Object.keys(s.properties) : [];
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(propertyNames);
  return [...new Set([...own, ...branches])];
}

/** An object with some of the schema's fields (hostile values) and maybe a stray one. */
function hostileObject(schema: unknown) {
  const names = propertyNames(schema);
  const fields = Object.fromEntries(names.map((n) => [n, hostileValue]));
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'x'), hostileValue)),
    )
    .map(([obj, extra]) => (extra ? { ...obj, [extra[0]]: extra[1] } : obj) as Record<string, unknown>);
}

/** Launch data no server should accept: forged, expired, from the future, or with an impossible user. */
function independentlySigned(userJson: string, authDate: Date): string {
  const date = String(Math.floor(authDate.getTime() / 1000));
  const pairs = [`auth_date=${date}`, `user=${userJson}`].sort().join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(BOT_TOKEN).digest();
  const hash = createHmac('sha256', secret).update(pairs).digest('hex');
  return new URLSearchParams({ user: userJson, auth_date: date, hash }).toString();
}
const badLaunchData = fc.oneof(
  fc
    .integer({ min: 1, max: 1e9 })
    .map((id) => sign({ user: { id, first_name: 'F' } } as never, OTHER_BOT, new Date())),
  fc
    .integer({ min: 2, max: 400 })
    .map((days) =>
      sign({ user: { id: 5, first_name: 'E' } } as never, BOT_TOKEN, new Date(Date.now() - days * 86400_000)),
    ),
  fc
    .integer({ min: 2, max: 10_000 })
    .map((min) =>
      sign({ user: { id: 6, first_name: 'Z' } } as never, BOT_TOKEN, new Date(Date.now() + min * 60_000)),
    ),
  fc
    .constantFrom('99999999999999999999', '9223372036854775808', '-3', '0', '1.5', '"7"', '1e400')
    .map((id) => independentlySigned(`{"id":${id},"first_name":"Big"}`, new Date())),
  fc
    .constantFrom('A\\u0000B', 'A\\ud800B', '')
    .map((name) => independentlySigned(`{"id":77,"first_name":"${name}"}`, new Date())),
  hostileString,
);

type TokenKind = 'valid' | 'none' | 'forged' | 'expired' | 'hugeSub' | 'garbage';
const tokenKind = fc.constantFrom<TokenKind>(
  'valid',
  'valid',
  'none',
  'forged',
  'expired',
  'hugeSub',
  'garbage',
);

async function jwt(sub: string, secret: string, expSeconds: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSeconds)
    .sign(new TextEncoder().encode(secret));
}

/** Percent-encodes text for a URL, lone surrogates included (as the invalid UTF-8 a raw client could send). */
function encodeLoose(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(ch);
  }
  return out;
}

type BodyKind = 'json' | 'broken' | 'oversized' | 'nonFinite' | 'textPlain' | 'none';

interface Hostile {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  bodyKind: BodyKind;
  token: TokenKind;
  admin: boolean;
}

function hostileRequest(route: RouteInfo, hasBody: boolean) {
  const paramNames = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const params = fc.record(Object.fromEntries(paramNames.map((n) => [n, hostileString])));
  const query = route.schema?.querystring ? hostileObject(route.schema.querystring) : fc.constant({});
  const body =
    route.url === '/api/auth/login'
      ? fc.oneof(
          badLaunchData.map((initData) => ({ initData })),
          hostileObject(route.schema?.body),
        )
      : route.schema?.body
        ? hostileObject(route.schema.body)
        : hostileValue;
  const bodyKind: fc.Arbitrary<BodyKind> = hasBody
    ? fc.constantFrom<BodyKind>(
        'json',
        'json',
        'json',
        'broken',
        'oversized',
        'nonFinite',
        'textPlain',
        'none',
      )
    : fc.constant<BodyKind>('none');
  return fc.record({ params, query, body, bodyKind, token: tokenKind, admin: fc.boolean() });
}

/** Whether the request as generated satisfies every schema of its route (then it is not hostile input). */
function wellFormed(route: RouteInfo, h: Hostile): boolean {
  const s = route.schema ?? {};
  if (!validates(s.params, h.params, true)) return false;
  if (!validates(s.querystring, h.query, true)) return false;
  // broken JSON and oversized bodies are refused by every route that reads a body
  if (h.bodyKind === 'broken' || h.bodyKind === 'oversized') return false;
  if (s.body === undefined) return true; // the route reads no body: text or non-finite numbers are ignored
  return h.bodyKind === 'json' && validates(s.body, h.body, false);
}

async function send(route: RouteInfo, method: string, h: Hostile) {
  let path = route.url;
  for (const [name, value] of Object.entries(h.params))
    path = path.replace(`:${name}`, encodeLoose(String(value)));
  const qs = Object.entries(h.query)
    .map(
      ([k, v]) => `${encodeLoose(k)}=${encodeLoose(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
    )
    .join('&');
  const headers: Record<string, string> = {};
  if (h.token !== 'none') headers.authorization = `Bearer ${tokens[h.token]}`;
  if (h.admin) headers['x-admin-key'] = ADMIN_KEY;
  let body: string | undefined;
  if (h.bodyKind !== 'none') {
    const json = JSON.stringify(h.body) ?? 'null';
    body = {
      json,
      // never valid JSON (cutting a short body, `""`, could leave the valid string `"{"`)
      broken: `{"broken":${json}`,
      oversized: JSON.stringify({
        pad: 'x'.repeat(70_000),
        ...((typeof h.body === 'object' && h.body) || {}),
      }),
      nonFinite: '{"quantity":1e999,"amount":-1e999,"coef":1e999,"itemId":"cake","caseId":"starter"}',
      textPlain: json,
    }[h.bodyKind];
    headers['content-type'] = h.bodyKind === 'textPlain' ? 'text/plain' : 'application/json';
  }
  const res = await fetch(`${server.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
}

async function books() {
  const db = server.built.ctx.db;
  const id = BigInt(PLAYER);
  const user = await db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const inventory = await db
    .selectFrom('inventory')
    .select(['item_id', 'quantity'])
    .where('user_id', '=', id)
    .orderBy('item_id')
    .execute();
  const ledger = await db
    .selectFrom('ledger')
    .select(['id', 'delta_nano'])
    .where('user_id', '=', id)
    .execute();
  const withdrawals = await db.selectFrom('withdrawals').select('id').where('user_id', '=', id).execute();
  return { balance: user.balance_nano, inventory, ledger: ledger.length, withdrawals: withdrawals.length };
}

describe('hostile input over every API route', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_KEY } });
    tokens.valid = await server.login({ id: PLAYER, first_name: 'Target' });
    tokens.forged = await jwt(String(PLAYER), 'not-the-secret-not-the-secret-not', 600);
    tokens.expired = await jwt(String(PLAYER), JWT_SECRET, -600);
    tokens.hugeSub = await jwt('99999999999999999999', JWT_SECRET, 600);
    tokens.garbage = 'a.b.c\u00e9';
    await setBalance(server, PLAYER, 100n * TON);
    await grantItems(server, PLAYER, { cake: 3, candy: 3, star: 3 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('enumerates the API routes with their contract schemas', () => {
    const api = server.built.routes.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(30);
    expect(api.filter((r) => r.schema?.body).length).toBeGreaterThan(8);
  });

  it('answers every hostile request below 500, with a JSON error, and changes no money or items', async () => {
    const before = await books();
    const routes = server.built.routes
      .filter((r) => r.url.startsWith('/api/'))
      .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({ route: r, method: m })))
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    let checked = 0;
    for (const { route, method } of routes) {
      const hasBody = method !== 'GET' && method !== 'DELETE';
      await fc.assert(
        fc.asyncProperty(hostileRequest(route, hasBody), async (h) => {
          const schemaBroken = !wellFormed(route, h);
          // a well-formed request with a valid session may do what it asks (a read, a rotation): not hostile
          fc.pre(schemaBroken || h.token !== 'valid' || method === 'GET');
          const res = await send(route, method, h);
          const where = `${method} ${route.url}`;
          expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.type, where).toMatch(/application\/json/);
            const err = JSON.parse(res.text) as { statusCode?: unknown; code?: unknown; message?: unknown };
            expect(err.statusCode, where).toBe(res.status);
            expect(typeof err.code, where).toBe('string');
            expect(typeof err.message, where).toBe('string');
          }
          if (schemaBroken)
            expect(
              res.status,
              `${where} took malformed input: ${res.text.slice(0, 200)}`,
            ).toBeGreaterThanOrEqual(400);
          checked++;
        }),
        { numRuns: RUNS, seed: process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined },
      );
      expect(await books(), `${method} ${route.url} changed the books`).toEqual(before);
    }
    expect(checked).toBeGreaterThan(routes.length);
  });
});
