import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TelegramUser {
  id: bigint;
  firstName: string;
  lastName: string | null;
  username: string | null;
  photoUrl: string | null;
  languageCode: string | null;
  isPremium: boolean;
}

interface LaunchUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  language_code?: string;
  is_premium?: boolean;
}

export type InitDataFailure =
  'HASH_MISSING' | 'HASH_INVALID' | 'AUTH_DATE_INVALID' | 'EXPIRED' | 'USER_MISSING';

export class InitDataError extends Error {
  constructor(readonly reason: InitDataFailure) {
    super(
      {
        HASH_MISSING: 'launch data has no hash',
        HASH_INVALID: 'launch data signature is invalid',
        AUTH_DATE_INVALID: 'launch data has no valid auth_date',
        EXPIRED: 'launch data is too old',
        USER_MISSING: 'launch data has no user',
      }[reason],
    );
    this.name = 'InitDataError';
  }
}

/**
 * Validates Telegram Mini App launch data (the raw query string) and returns its user.
 *
 * secret = HMAC-SHA256(key "WebAppData", bot token); the data-check string is every `key=value` pair but
 * `hash`, sorted by key and joined by newlines; its hex HMAC under the secret must equal `hash`.
 * The comparison is constant-time. (@telegram-apps/init-data-node signs our demo and test launch data, but
 * its `validate` compares the hashes with `!==` and its parser requires the newer `signature` field, so the
 * check is done here; the unit tests hold it to the library's `isValid` and to an independent signer.)
 */
export function validateInitData(
  raw: string,
  botToken: string,
  maxAgeSeconds: number,
  now: Date = new Date(),
): TelegramUser {
  const params = new URLSearchParams(raw);
  const hash = params.get('hash');
  if (!hash) throw new InitDataError('HASH_MISSING');
  const pairs: string[] = [];
  for (const [key, value] of params) if (key !== 'hash') pairs.push(`${key}=${value}`);
  pairs.sort();
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(pairs.join('\n')).digest();
  const given = /^[0-9a-f]{64}$/i.test(hash) ? Buffer.from(hash, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new InitDataError('HASH_INVALID');
  }

  const authDate = Number(params.get('auth_date'));
  if (!Number.isInteger(authDate) || authDate <= 0) throw new InitDataError('AUTH_DATE_INVALID');
  if (maxAgeSeconds > 0 && now.getTime() / 1000 - authDate > maxAgeSeconds)
    throw new InitDataError('EXPIRED');

  const user = parseUser(params.get('user'));
  if (!user) throw new InitDataError('USER_MISSING');
  // JSON.parse reads the id as a number; read it again from the text so ids past 2^53 stay exact.
  const idText = /"id"\s*:\s*(\d+)/.exec(params.get('user') ?? '')?.[1];
  return {
    id: BigInt(idText ?? user.id),
    firstName: user.first_name,
    lastName: user.last_name ?? null,
    username: user.username ?? null,
    photoUrl: user.photo_url ?? null,
    languageCode: user.language_code ?? null,
    isPremium: user.is_premium ?? false,
  };
}

function parseUser(json: string | null): LaunchUser | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const u = value as Record<string, unknown>;
  if (typeof u.id !== 'number' || !Number.isInteger(u.id) || u.id <= 0) return null;
  if (typeof u.first_name !== 'string') return null;
  const text = (k: string) => (typeof u[k] === 'string' && u[k] !== '' ? (u[k] as string) : undefined);
  return {
    id: u.id,
    first_name: u.first_name.slice(0, 128),
    last_name: text('last_name')?.slice(0, 128),
    username: text('username')?.slice(0, 64),
    photo_url: text('photo_url')?.slice(0, 512),
    language_code: text('language_code')?.slice(0, 16),
    is_premium: u.is_premium === true,
  };
}
