import { ofetch, type $Fetch, type FetchOptions } from 'ofetch';
import type { LoginResponse } from '../../contract/auth.ts';
import type { ApiError } from '../../contract/common.ts';
import type { KeyValueStorage } from '../lib/storage';
import { createSession, type Session } from './session';

/** Every call has a 10-second timeout (spec §7, §9). */
export const API_TIMEOUT_MS = 10_000;

/** Launch data (raw initData) to sign in with; undefined when there is none. May be fetched anew. */
export type InitDataSource = () => string | undefined | Promise<string | undefined>;

export interface ApiClientOptions {
  /** e.g. '/api' */
  baseURL: string;
  /** where the token is kept under the key `token` */
  storage: KeyValueStorage;
  getInitData: InitDataSource;
  timeout?: number;
  /** called after every successful login (at start and on re-login) */
  onLogin?: (answer: LoginResponse) => void;
}

/** Options of one JSON call: method, body, query, headers, signal... */
type RequestOptions = Omit<FetchOptions<'json'>, 'baseURL' | 'responseType' | 'timeout'>;

/** Options of a money request: the call's options and, optionally, the user intent's key. */
interface MoneyRequestOptions extends RequestOptions {
  /**
   * The Idempotency-Key of this user intent (a tap on open, sell, withdraw or upgrade). Made fresh for
   * the call when left out; pass one made with newIdempotencyKey() to keep it across the caller's own
   * retries of the same intent.
   */
  idempotencyKey?: string;
}

/** The header the server deduplicates money requests by. */
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Extra tries of a money request whose answer was lost (no answer, a timeout, 502/503/504)... */
const MONEY_RETRIES = 2;
/** ...after these pauses, ms. */
const MONEY_RETRY_DELAYS_MS = [400, 1200];

/**
 * A money request refused before it left because the device is offline: nothing was sent, so nothing was
 * paid, and it is not kept to be sent later (a money action is never replayed behind the player's back).
 */
export class OfflineError extends Error {
  constructor() {
    super('No connection: the request was not sent');
    this.name = 'OfflineError';
  }
}

/** Whether the device says it has no connection (a browser without the flag counts as online). */
function deviceOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Throws OfflineError when the device has no connection: a money call fails at once, not later. */
export function requireConnection(): void {
  if (deviceOffline()) throw new OfflineError();
}

/** A fresh Idempotency-Key: one per user intent. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface ApiClient {
  /**
   * A JSON call with the session: bearer header when a token exists; on a 401 it signs in again once
   * with the launch data, stores the new token and retries. If that sign-in fails, the original error
   * is thrown (and 'Reauthorization failed' logged).
   */
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * A money request (open, sell one, sell all, withdraw, upgrade): sent with one Idempotency-Key for the
   * whole user intent, kept across every retry: the re-login retry, and up to MONEY_RETRIES tries more
   * when the answer was lost (no answer, a timeout, 502/503/504). The server applies the change once and
   * answers a retry with the stored answer, so a retry never pays twice.
   */
  money<T>(path: string, options?: MoneyRequestOptions): Promise<T>;
  /** POST /auth/login with launch data; stores the token. */
  login(initData: string): Promise<LoginResponse>;
  /**
   * Login at start: runs once, only when no token is saved and launch data exists.
   * A failure here is ignored (the first 401 will try again).
   */
  startSession(): Promise<void>;
  /** Removes the token. */
  logout(): void;
  session: Session;
  /** The ofetch instance (baseURL, timeout, bearer header), without the 401 handling. */
  http: $Fetch;
}

/** The HTTP status of an error thrown by a call, if it has one. */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { status?: unknown; statusCode?: unknown };
  const status = e.status ?? e.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * For a call refused with 429 (a rate limit): the seconds to wait before trying again, from the
 * Retry-After header or the body's `retryAfter`. The client also sets it as `retryAfter` on the error.
 */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || errorStatus(error) !== 429) return undefined;
  const own = (error as { retryAfter?: unknown }).retryAfter;
  if (typeof own === 'number') return own;
  const header = (error as { response?: { headers?: Headers } }).response?.headers?.get('retry-after');
  const fromHeader = header ? Number(header) : NaN;
  if (Number.isFinite(fromHeader) && fromHeader >= 0) return Math.ceil(fromHeader);
  const fromBody = apiErrorBody(error)?.retryAfter;
  return typeof fromBody === 'number' ? fromBody : undefined;
}

/** Whether a failed call may not have reached the server, or its answer was lost on the way back. */
function answerLost(error: unknown): boolean {
  const status = errorStatus(error);
  return status === undefined || status === 502 || status === 503 || status === 504;
}

/** The API's error body `{statusCode, error, code, message}` carried by a failed call, if any. */
export function apiErrorBody(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  if (typeof data === 'object' && data !== null && 'code' in data && 'statusCode' in data) {
    return data as ApiError;
  }
  return undefined;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const session = createSession(options.storage);
  const timeout = options.timeout ?? API_TIMEOUT_MS;

  // Retries of failed calls are the caller's choice (TanStack Query retries queries), not ofetch's.
  const http = ofetch.create({
    baseURL: options.baseURL,
    timeout,
    retry: 0,
    onRequest({ options: request }) {
      const token = session.getToken();
      if (token && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${token}`);
      }
    },
  });
  const anonymous = ofetch.create({ baseURL: options.baseURL, timeout, retry: 0 });

  async function login(initData: string): Promise<LoginResponse> {
    const answer = await anonymous<LoginResponse>('/auth/login', { method: 'POST', body: { initData } });
    session.setToken(answer.token);
    options.onLogin?.(answer);
    return answer;
  }

  // Calls failing with 401 at the same time share one re-login.
  let relogin: Promise<void> | null = null;
  function reloginOnce(): Promise<void> {
    relogin ??= (async () => {
      try {
        const initData = await options.getInitData();
        if (!initData) throw new Error('No launch data to sign in with');
        await login(initData);
      } finally {
        relogin = null;
      }
    })();
    return relogin;
  }

  /** One call; a 429's wait is set on the error as `retryAfter` (seconds). */
  async function call<T>(path: string, requestOptions: RequestOptions): Promise<T> {
    try {
      return await http<T>(path, requestOptions);
    } catch (error) {
      const retryAfter = retryAfterSeconds(error);
      if (retryAfter !== undefined) Object.assign(error as object, { retryAfter });
      throw error;
    }
  }

  async function request<T>(path: string, requestOptions: RequestOptions = {}): Promise<T> {
    // a call made while the first sign-in is under way waits for it, instead of answering 401
    if (started) await started;
    const tokenUsed = session.getToken();
    try {
      return await call<T>(path, requestOptions);
    } catch (error) {
      if (errorStatus(error) !== 401) throw error;
      // Another call may have signed in again meanwhile: then only retry with the new token.
      const current = session.getToken();
      if (!current || current === tokenUsed) {
        try {
          await reloginOnce();
        } catch (reloginError) {
          console.error('Reauthorization failed', reloginError);
          throw error;
        }
      }
      return await call<T>(path, requestOptions);
    }
  }

  async function money<T>(path: string, moneyOptions: MoneyRequestOptions = {}): Promise<T> {
    const { idempotencyKey = newIdempotencyKey(), ...rest } = moneyOptions;
    const headers = new Headers(rest.headers as HeadersInit | undefined);
    headers.set(IDEMPOTENCY_HEADER, idempotencyKey);
    const requestOptions: RequestOptions = { method: 'POST', ...rest, headers };
    for (let attempt = 0; ; attempt++) {
      // without a connection it fails at once: never queued, never sent later by itself
      requireConnection();
      try {
        return await request<T>(path, requestOptions);
      } catch (error) {
        if (attempt >= MONEY_RETRIES || !answerLost(error) || requestOptions.signal?.aborted) throw error;
        // the connection went while the answer was awaited: the player is told now, not retried later
        if (deviceOffline()) throw error;
        await new Promise((resolve) => setTimeout(resolve, MONEY_RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  let started: Promise<void> | null = null;
  function startSession(): Promise<void> {
    started ??= (async () => {
      if (session.getToken()) return;
      try {
        const initData = await options.getInitData();
        if (initData) await login(initData);
      } catch {
        // Silently ignored (spec §4): the first call answered 401 signs in again.
      }
    })();
    return started;
  }

  return { request, money, login, startSession, logout: () => session.clear(), session, http };
}
