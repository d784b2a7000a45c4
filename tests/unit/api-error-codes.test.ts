import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../src/i18n/en.json' with { type: 'json' };
import ru from '../../src/i18n/ru.json' with { type: 'json' };

// The app shows a failed request by its error code, translated under `apiErrors` (the server's message is
// English, for API users). Every code the server can answer needs a translation in both languages.

const SERVER = new URL('../../server/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The codes passed to the error helpers, the HttpError constructor and the error handler. */
function serverCodes(): Set<string> {
  const codes = new Set<string>();
  const patterns = [
    // badRequest('CODE', ...), conflict(\n 'CODE', ...), new HttpError(402, 'CODE', ...)
    /\b(?:badRequest|unauthorized|forbidden|notFound|conflict)\(\s*'([A-Z][A-Z0-9_]+)'/g,
    /\bHttpError\(\s*\d{3},\s*'([A-Z][A-Z0-9_]+)'/g,
    // the error handler and the connection-level answers: code = 'CODE', [status, 'CODE', ...], code: 'CODE'
    /\bcode = '([A-Z][A-Z0-9_]+)'/g,
    /\[\d{3}, '([A-Z][A-Z0-9_]+)'/g,
    /\bcode: '([A-Z][A-Z0-9_]+)'/g,
    // FASTIFY_CODES values and other maps onto codes
    /: '([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)',\n/g,
  ];
  for (const file of sources(SERVER)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) codes.add(match[1]!);
    // sign-in: `INIT_DATA_${reason}` over InitDataError's reasons
    if (text.includes('INIT_DATA_${err.reason}')) {
      const initData = readFileSync(join(SERVER, 'auth/init-data.ts'), 'utf8');
      for (const match of initData.matchAll(/new InitDataError\('([A-Z_]+)'\)/g))
        codes.add(`INIT_DATA_${match[1]}`);
    }
  }
  // rate limits (server/limits.ts builds it through a helper)
  codes.add('RATE_LIMITED');
  return codes;
}

describe('error code translations', () => {
  const codes = serverCodes();

  it('finds the codes the server answers with', () => {
    for (const code of [
      'INSUFFICIENT_BALANCE',
      'ITEM_NOT_OWNED',
      'VALIDATION_ERROR',
      'INTERNAL',
      'BODY_TOO_LARGE',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it.each([
    ['ru', ru.apiErrors as Record<string, string>],
    ['en', en.apiErrors as Record<string, string>],
  ])('every server error code has a %s translation', (_language, texts) => {
    const missing = [...codes].filter((code) => !texts[code]);
    expect(missing).toEqual([]);
    expect(texts.unknown).toBeTruthy();
  });

  it('the Russian and English tables name the same codes', () => {
    expect(Object.keys(ru.apiErrors).sort()).toEqual(Object.keys(en.apiErrors).sort());
  });
});
