import type { KeyValueStorage } from '../lib/storage';

/** Local storage key of the session token (spec §3, §9). */
export const TOKEN_KEY = 'token';

/** The session token kept in a storage: no token → login with launch data → token stored. */
export interface Session {
  getToken(): string | null;
  setToken(token: string): void;
  /** Logout: forget the token. */
  clear(): void;
}

/** `storage` is localStorage in the app (see lib/storage `browserStorage`) and an in-memory one in tests. */
export function createSession(storage: KeyValueStorage, key: string = TOKEN_KEY): Session {
  return {
    getToken: () => storage.getItem(key) || null,
    setToken: (token) => storage.setItem(key, token),
    clear: () => storage.removeItem(key),
  };
}
