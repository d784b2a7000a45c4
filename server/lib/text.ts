// Text from outside that Postgres cannot store. A NUL character ("\u0000") is valid in JSON and in a decoded
// URL, but neither TEXT nor JSONB accepts it: it would reach a statement and fail there (a 500, after part
// of the work). Requests holding one are refused at the edge instead, before any handler runs.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** Whether a string holds a character Postgres text cannot store. */
function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/**
 * Whether any string in a parsed JSON value (object keys included) holds a NUL. Walks without recursion, so
 * a deeply nested body cannot exhaust the stack.
 */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (hasNul(next)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (next !== null && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (hasNul(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** The 400 for text holding a NUL (the error handler sends it as JSON; nothing has run or changed). */
export function nulRefused(where: string) {
  return badRequest('INVALID_TEXT', `The ${where} holds a NUL character, which text here cannot contain`);
}

/**
 * Refuses, with 400 INVALID_TEXT, every request whose path parameters, query or JSON body hold a NUL, before
 * validation and the handler. (Headers cannot: Node's parser rejects a NUL there. A raw body, the Crypto Pay
 * webhook's, is checked by its route once it has verified and parsed it.)
 */
export function refuseNulInput(app: FastifyInstance): void {
  // a callback hook, not an async one: it runs on every request and mostly finds nothing
  app.addHook('preValidation', (request, _reply, done) => {
    const where = holdsNul(request.params)
      ? 'path'
      : holdsNul(request.query)
        ? 'query string'
        : !Buffer.isBuffer(request.body) && holdsNul(request.body)
          ? 'request body'
          : null;
    if (where === null) return done();
    request.log.warn({ url: request.url.slice(0, 200), where }, 'request refused: NUL character in its text');
    done(nulRefused(where));
  });
}
