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
 * Amounts cross the API as exact decimal strings of TON ("3.97", "0.25", "0.000000001"): the server keeps
 * integer nanoTON and writes them with formatTon; clients read them with parseTon (contract/money.ts).
 */
export const Ton = Type.String({ pattern: TON_PATTERN, description: 'amount in TON, exact decimal text' });

/** An amount a person typed, in TON as decimal text ("12.5", "12,5", "1e-9"); the server parses it exactly. */
export const TonInput = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'amount in TON, decimal text',
});

export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;
