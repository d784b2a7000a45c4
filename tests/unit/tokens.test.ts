import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../server/auth/tokens.ts';

// Verified tokens are remembered (server/auth/tokens.ts): what is remembered must answer as a fresh check
// would, expiry included.

afterEach(() => {
  vi.useRealTimers();
});

describe('session tokens', () => {
  it('a remembered token still expires on time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = new TokenService('a-secret-of-enough-length-for-hs256-0123', 60);
    const token = await tokens.issue(42n);
    expect(await tokens.verify(token)).toBe(42n);
    expect(await tokens.verify(token)).toBe(42n); // remembered
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await tokens.verify(token)).toBe(42n);
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await tokens.verify(token)).toBe('expired');
    expect(await tokens.verify(token)).toBe('expired');
  });

  it('a token with another subject under a good signature, or signed with another secret, is refused after a good one', async () => {
    const tokens = new TokenService('a-secret-of-enough-length-for-hs256-0123', 3600);
    const token = await tokens.issue(7n);
    expect(await tokens.verify(token)).toBe(7n);
    // another player's id under the good signature
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string };
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '8' })).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBe('invalid');
    const other = new TokenService('another-secret-of-enough-length-0123456', 3600);
    expect(await other.verify(token)).toBe('invalid');
    expect(await other.verify(await other.issue(8n))).toBe(8n);
  });
});
