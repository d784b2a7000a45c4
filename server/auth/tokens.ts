import { SignJWT, jwtVerify, errors } from 'jose';

/** The largest id a session may name: int64's maximum (users.id is a BIGINT). */
const MAX_USER_ID = 2n ** 63n - 1n;

/** Tokens remembered as verified; past this, the oldest is forgotten (verified again when it comes back). */
const VERIFIED_CACHE_SIZE = 20_000;

/**
 * Signed, expiring session tokens (HS256). The subject is the Telegram user id.
 *
 * A token that verified is remembered (its exact text, its user id and expiry), so a player's next requests
 * cost a map lookup and an expiry check instead of a signature check: every money request carries the
 * token. Only the same bytes match, and a remembered token still expires on time.
 */
export class TokenService {
  private readonly key: Uint8Array;
  /** verified tokens: user id and expiry (seconds since the epoch), oldest first */
  private readonly verified = new Map<string, { id: bigint; exp: number }>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: bigint): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId.toString())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(this.key);
  }

  /** The user id of a valid token; 'expired' or 'invalid' otherwise. */
  async verify(token: string): Promise<bigint | 'expired' | 'invalid'> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule: expired once the clock reaches exp
      if (Math.floor(Date.now() / 1000) < known.exp) return known.id;
      this.verified.delete(token);
      return 'expired';
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      // a player id: a positive integer that fits the database's BIGINT
      if (!payload.sub || !/^[1-9]\d{0,18}$/.test(payload.sub)) return 'invalid';
      const id = BigInt(payload.sub);
      if (id > MAX_USER_ID) return 'invalid';
      // only a token that expires is remembered (jose accepts one without exp; ours always have it)
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_CACHE_SIZE) {
          this.verified.delete(this.verified.keys().next().value!);
        }
        this.verified.set(token, { id, exp: payload.exp });
      }
      return id;
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
