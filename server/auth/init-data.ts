import { createHmac, timingSafeEqual } from 'node:crypto';
import { parse } from '@telegram-apps/init-data-node';
import { isSafeText } from '../../contract/common.ts';

export interface TelegramUser {
  id: bigint;
  firstName: string;
  lastName: string | null;
  username: string | null;
  photoUrl: string | null;
  languageCode: string | null;
  isPremium: boolean;
  /** the player allowed the bot to write to them (allows_write_to_pm) */
  allowsWriteToPm: boolean;
}

export type InitDataFailure =
  | 'HASH_MISSING'
  | 'HASH_INVALID'
  | 'MALFORMED'
  | 'AUTH_DATE_INVALID'
  | 'AUTH_DATE_FUTURE'
  | 'EXPIRED'
  | 'USER_MISSING'
  | 'USER_INVALID';

/** The fields of launch data we read, as the library's parser gives them (snake case). */
interface ParsedLaunchData {
  auth_date: Date;
  user?: {
    id: number;
    first_name: string;
    last_name?: string;
    username?: string;
    photo_url?: string;
    language_code?: string;
    is_premium?: boolean;
    allows_write_to_pm?: boolean;
  };
}

/** How far in the future `auth_date` may be (clocks differ a little); later launch data is refused. */
const AUTH_DATE_SKEW_SECONDS = 60;

export class InitDataError extends Error {
  constructor(readonly reason: InitDataFailure) {
    super(
      {
        HASH_MISSING: 'launch data has no hash',
        HASH_INVALID: 'launch data signature is invalid',
        MALFORMED: 'launch data is malformed',
        AUTH_DATE_INVALID: 'launch data has no valid auth_date',
        AUTH_DATE_FUTURE: 'launch data is dated in the future',
        EXPIRED: 'launch data is too old',
        USER_MISSING: 'launch data has no user',
        USER_INVALID: 'launch data has an invalid user',
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
 * The comparison is constant-time. @telegram-apps/init-data-node signs our demo and test launch data, but
 * its `validate` compares the hashes with `!==`, so the check is done here on the raw text; once it holds,
 * the library's parser reads the fields (its schema wants Telegram's newer `signature` field, which only
 * third parties need: launch data without one is parsed as if it were empty).
 *
 * Refused: a bad or missing hash, malformed fields, `auth_date` older than maxAgeSeconds or more than
 * AUTH_DATE_SKEW_SECONDS in the future, and a user whose id is not a positive integer Telegram can issue
 * (at most 52 significant bits, Telegram says: a safe integer here) or whose names are not safe text.
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

  let data: ParsedLaunchData;
  try {
    const fields = new URLSearchParams(params);
    if (!fields.has('signature')) fields.set('signature', '');
    data = parse(fields) as ParsedLaunchData;
  } catch {
    throw new InitDataError('MALFORMED');
  }

  const authDate = data.auth_date.getTime() / 1000;
  if (!Number.isInteger(authDate) || authDate <= 0) throw new InitDataError('AUTH_DATE_INVALID');
  const nowSeconds = now.getTime() / 1000;
  if (authDate - nowSeconds > AUTH_DATE_SKEW_SECONDS) throw new InitDataError('AUTH_DATE_FUTURE');
  if (maxAgeSeconds > 0 && nowSeconds - authDate > maxAgeSeconds) throw new InitDataError('EXPIRED');

  const user = data.user;
  if (!user) throw new InitDataError('USER_MISSING');
  if (!Number.isSafeInteger(user.id) || user.id <= 0) throw new InitDataError('USER_INVALID');
  const text = (value: unknown, max: number): string | null => {
    if (typeof value !== 'string' || value === '') return null;
    if (!isSafeText(value)) throw new InitDataError('USER_INVALID');
    return value.slice(0, max);
  };
  const firstName = text(user.first_name, 128);
  if (firstName === null) throw new InitDataError('USER_INVALID');
  return {
    id: BigInt(user.id),
    firstName,
    lastName: text(user.last_name, 128),
    username: text(user.username, 64),
    photoUrl: text(user.photo_url, 512),
    languageCode: text(user.language_code, 16),
    isPremium: user.is_premium === true,
    allowsWriteToPm: user.allows_write_to_pm === true,
  };
}
