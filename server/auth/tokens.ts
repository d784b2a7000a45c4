import { SignJWT, jwtVerify, errors } from 'jose';

/** The largest id a session may name: int64's maximum (users.id is a BIGINT). */
const MAX_USER_ID = 2n ** 63n - 1n;

/** Signed, expiring session tokens (HS256). The subject is the Telegram user id. */
export class TokenService {
  private readonly key: Uint8Array;

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
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      // a player id: a positive integer that fits the database's BIGINT
      if (!payload.sub || !/^[1-9]\d{0,18}$/.test(payload.sub)) return 'invalid';
      const id = BigInt(payload.sub);
      return id <= MAX_USER_ID ? id : 'invalid';
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
