import { ofetch } from 'ofetch';
import type { DemoLaunchDataResponse } from '../../contract/auth.ts';
import { browserStorage } from '../lib/storage';
import { API_TIMEOUT_MS, createApiClient, type InitDataSource } from './client';

export {
  apiErrorBody,
  errorStatus,
  newIdempotencyKey,
  OfflineError,
  requireConnection,
  retryAfterSeconds,
} from './client';

/** Same origin by default; a build can point elsewhere with VITE_API_BASE. */
export const API_BASE = (import.meta.env.VITE_API_BASE || '/api').replace(/\/+$/, '');

let initDataSource: InitDataSource = () => undefined;

/** Where sign-in takes its launch data from; set once the platform is known (see lib/telegram). */
export function setInitDataSource(source: InitDataSource): void {
  initDataSource = source;
}

const loginListeners = new Set<() => void>();

/** Calls listener after every sign-in (at start and each re-login), e.g. to sign the app socket in. */
export function onLogin(listener: () => void): () => void {
  loginListeners.add(listener);
  return () => loginListeners.delete(listener);
}

/** The app's API client: one session, token in localStorage under `token`. */
export const api = createApiClient({
  baseURL: API_BASE,
  storage: browserStorage(),
  getInitData: () => initDataSource(),
  onLogin: () => {
    for (const listener of loginListeners) listener();
  },
});

/** GET /dev/launch-data: launch data signed by the server for its demo user; 404 unless in demo mode. */
export async function fetchDemoLaunchData(): Promise<string | undefined> {
  try {
    const answer = await ofetch<DemoLaunchDataResponse>('/dev/launch-data', {
      baseURL: API_BASE,
      timeout: API_TIMEOUT_MS,
      retry: 0,
    });
    return answer.initData || undefined;
  } catch {
    return undefined;
  }
}
