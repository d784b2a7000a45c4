import { Type, type Static } from 'typebox';
import { TON_PATTERN } from './money.ts';

/** Every 4xx/5xx answer of the API has this JSON body. `code` is machine-readable, `message` is for people. */
export const ApiError = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String({ description: 'HTTP reason phrase, e.g. "Bad Request"' }),
  code: Type.String({ description: 'machine-readable reason, e.g. INSUFFICIENT_BALANCE' }),
  message: Type.String({ description: 'readable explanation' }),
  retryAfter: Type.Optional(
    Type.Integer({ minimum: 0, description: 'with 429 RATE_LIMITED: seconds to wait before trying again' }),
  ),
});
export type ApiError = Static<typeof ApiError>;

/**
 * Text that can be stored and shown: no NUL character (Postgres refuses it in TEXT) and no lone UTF-16
 * surrogate (not valid Unicode, unencodable as UTF-8). Matched with Ajv's unicode regular expressions,
 * where a well-formed surrogate pair is one code point and only a lone surrogate falls in D800-DFFF.
 */
export const SAFE_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** Whether a string is safe text (see SAFE_TEXT_PATTERN) of at most maxLength UTF-16 units. */
export function isSafeText(text: string, maxLength = Infinity): boolean {
  return text.length <= maxLength && new RegExp(SAFE_TEXT_PATTERN, 'u').test(text);
}

/** A request string: safe text (see SAFE_TEXT_PATTERN), bounded in length (maxLength is required). */
export const SafeText = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ pattern: SAFE_TEXT_PATTERN, ...options });

/** The highest page number a paged list accepts (page × limit stays far inside any integer type). */
export const MAX_PAGE = 100_000;

/** `?page=` of a paged list: 1 to MAX_PAGE. */
export const PageNumber = Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 });

/**
 * Amounts cross the API as exact decimal strings of TON ("3.97", "0.25", "0.000000001"): the server keeps
 * integer nanoTON and writes them with formatTon; clients read them with parseTon (contract/money.ts).
 */
export const Ton = Type.String({ pattern: TON_PATTERN, description: 'amount in TON, exact decimal text' });

/** An amount a person typed, in TON as decimal text ("12.5", "12,5", "1e-9"); the server parses it exactly. */
export const TonInput = SafeText({
  minLength: 1,
  maxLength: 40,
  description: 'amount in TON, decimal text',
});

export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;
