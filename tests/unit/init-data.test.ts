import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValid, sign } from '@telegram-apps/init-data-node';
import { InitDataError, validateInitData } from '../../server/auth/init-data.ts';

const TOKEN = '7000000001:AAE_real_looking_bot_token_value_1234';
const OTHER = '7000000002:AAE_another_bot_token_value_5678_abcd';
const now = new Date('2026-11-22T12:00:00Z');
const user = { id: 424242, first_name: 'Anna', last_name: 'K', username: 'anna', language_code: 'en' };

function signed(authDate = now, token = TOKEN, data: Record<string, unknown> = { user }) {
  return sign(data as Parameters<typeof sign>[0], token, authDate);
}

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof InitDataError) return err.reason;
    throw err;
  }
  return 'accepted';
}

describe('Telegram launch data validation', () => {
  it('accepts valid launch data and reads the user', () => {
    const raw = signed();
    const u = validateInitData(raw, TOKEN, 86400, now);
    expect(u).toEqual({
      id: 424242n,
      firstName: 'Anna',
      lastName: 'K',
      username: 'anna',
      photoUrl: null,
      languageCode: 'en',
      isPremium: false,
      allowsWriteToPm: false,
    });
    // agrees with the library's own check
    expect(isValid(raw, TOKEN, { expiresIn: 0 })).toBe(true);
  });

  /** Launch data signed by an independent implementation (no library), for user JSON of our choosing. */
  function independentlySigned(userJson: string, authDate = now): string {
    const date = String(Math.floor(authDate.getTime() / 1000));
    const pairs = [`auth_date=${date}`, `user=${userJson}`].sort().join('\n');
    const secret = createHmac('sha256', 'WebAppData').update(TOKEN).digest();
    const hash = createHmac('sha256', secret).update(pairs).digest('hex');
    return new URLSearchParams({ user: userJson, auth_date: date, hash }).toString();
  }

  it('reads large Telegram ids exactly and refuses ids Telegram cannot issue (above 2^53, int64 or not integers)', () => {
    // Telegram ids have at most 52 significant bits; launch data without the newer `signature` field is fine
    expect(
      validateInitData(independentlySigned('{"id":4503599627370497,"first_name":"Big"}'), TOKEN, 86400, now)
        .id,
    ).toBe(4503599627370497n);
    for (const id of ['9007199254740993', '99999999999999999999', '-5', '0', '1.5', '"12"', '1e400']) {
      expect(
        reason(() =>
          validateInitData(independentlySigned(`{"id":${id},"first_name":"X"}`), TOKEN, 86400, now),
        ),
      ).toMatch(/USER_INVALID|MALFORMED/);
    }
  });

  it('refuses a signed user whose names hold a NUL or a lone surrogate, and malformed user JSON', () => {
    expect(
      reason(() =>
        validateInitData(independentlySigned('{"id":5,"first_name":"a\\u0000b"}'), TOKEN, 86400, now),
      ),
    ).toBe('USER_INVALID');
    expect(
      reason(() =>
        validateInitData(independentlySigned('{"id":5,"first_name":"a\\ud800b"}'), TOKEN, 86400, now),
      ),
    ).toBe('USER_INVALID');
    expect(reason(() => validateInitData(independentlySigned('{"id":5,'), TOKEN, 86400, now))).toBe(
      'MALFORMED',
    );
  });

  it('refuses auth_date in the future beyond a small clock skew', () => {
    const soon = new Date(now.getTime() + 30 * 1000);
    expect(reason(() => validateInitData(signed(soon), TOKEN, 86400, now))).toBe('accepted');
    const later = new Date(now.getTime() + 3600 * 1000);
    expect(reason(() => validateInitData(signed(later), TOKEN, 86400, now))).toBe('AUTH_DATE_FUTURE');
  });

  it('rejects a tampered hash', () => {
    const raw = signed();
    const hash = new URLSearchParams(raw).get('hash')!;
    const flipped = hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0');
    expect(reason(() => validateInitData(raw.replace(hash, flipped), TOKEN, 86400, now))).toBe(
      'HASH_INVALID',
    );
  });

  it('rejects a changed field', () => {
    const raw = signed().replace('Anna', 'Anne');
    expect(reason(() => validateInitData(raw, TOKEN, 86400, now))).toBe('HASH_INVALID');
  });

  it('rejects an added field', () => {
    expect(reason(() => validateInitData(signed() + '&start_param=x', TOKEN, 86400, now))).toBe(
      'HASH_INVALID',
    );
  });

  it('rejects auth_date older than the window', () => {
    const old = new Date(now.getTime() - 86401 * 1000);
    expect(reason(() => validateInitData(signed(old), TOKEN, 86400, now))).toBe('EXPIRED');
    // inside the window it is fine
    const recent = new Date(now.getTime() - 86000 * 1000);
    expect(reason(() => validateInitData(signed(recent), TOKEN, 86400, now))).toBe('accepted');
  });

  it('rejects launch data without a hash', () => {
    const raw = signed().replace(/&?hash=[0-9a-f]+/, '');
    expect(reason(() => validateInitData(raw, TOKEN, 86400, now))).toBe('HASH_MISSING');
  });

  it('rejects launch data signed with another bot token', () => {
    expect(reason(() => validateInitData(signed(now, OTHER), TOKEN, 86400, now))).toBe('HASH_INVALID');
  });

  it('rejects a hash that is not hex of the right length', () => {
    const raw = signed().replace(/hash=[0-9a-f]+/, 'hash=zz');
    expect(reason(() => validateInitData(raw, TOKEN, 86400, now))).toBe('HASH_INVALID');
  });

  it('rejects signed launch data without a user', () => {
    const raw = signed(now, TOKEN, { query_id: 'AAH' });
    expect(reason(() => validateInitData(raw, TOKEN, 86400, now))).toBe('USER_MISSING');
  });
});
