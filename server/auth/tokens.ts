/**
 * Session tokens: HS256 JWTs carrying `sub` (user id) and `sid` (session row id). The secret is
 * generated into DATA_DIR/secret.key on first start and reused, so tokens survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  readonly userId: number;
  readonly sessionId: string;
  /** Issued-at and expiry in epoch seconds. */
  readonly iat: number;
  readonly exp: number;
}

export function loadOrCreateSecret(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    // 'wx' fails if another process created it meanwhile; then we read theirs.
    try {
      writeFileSync(file, randomBytes(48).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`${file} is too short to be a signing secret; delete it to generate a new one`);
  return new TextEncoder().encode(text);
}

export class TokenService {
  constructor(private readonly secret: Uint8Array, readonly ttlSeconds: number) {}

  async sign(userId: number, sessionId: string): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.secret);
  }

  /** Verified claims, or undefined for a bad, tampered or expired token. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.sid !== 'string' || payload.iat === undefined || payload.exp === undefined) return undefined;
      return { userId, sessionId: payload.sid, iat: payload.iat, exp: payload.exp };
    } catch (err) {
      if (err instanceof errors.JOSEError) return undefined;
      throw err;
    }
  }

  /** Past half of its life: the answer should carry a fresh token (sliding expiry). */
  needsRefresh(claims: TokenClaims, nowMs = Date.now()): boolean {
    return nowMs / 1000 - claims.iat > (claims.exp - claims.iat) / 2;
  }
}
