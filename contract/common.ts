import { Type, type Static } from 'typebox';

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

/** Amounts cross the API as TON numbers (the server keeps integer nanoTON). */
export const Ton = Type.Number({ description: 'amount in TON' });

export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;
