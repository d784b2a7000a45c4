import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../lib/errors.ts';

/** A preHandler that admits only requests with a valid bearer token and sets request.userId. */
export function requireUser(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) throw unauthorized('TOKEN_MISSING', 'Sign in first: no bearer token was sent');
    const result = await ctx.tokens.verify(match[1]!);
    if (result === 'expired') throw unauthorized('TOKEN_EXPIRED', 'Your session has expired; sign in again');
    if (result === 'invalid') throw unauthorized('TOKEN_INVALID', 'The session token is not valid');
    request.userId = result;
  };
}
