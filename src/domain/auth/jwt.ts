// Session tokens for the dashboard: HS256 (pinned), with exp, iss, aud and sub = account id.
import { SignJWT, jwtVerify, errors } from 'jose';
import { AppError } from '../../errors.ts';

const ALGORITHM = 'HS256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface JwtSettings {
  secret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface JwtService {
  sign(accountId: string, email: string): Promise<{ token: string; expiresAt: Date }>;
  /** Returns the account id; throws UNAUTHORIZED / TOKEN_EXPIRED. */
  verify(token: string): Promise<string>;
}

export function createJwtService(settings: JwtSettings): JwtService {
  const key = new TextEncoder().encode(settings.secret);
  return {
    async sign(accountId, email) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = new Date((issuedAt + settings.ttlSeconds) * 1000);
      const token = await new SignJWT({ email })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(accountId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: settings.issuer,
          audience: settings.audience,
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || !UUID.test(payload.sub))
          throw new AppError('UNAUTHORIZED', "The token's subject is not an account id.");
        return payload.sub;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof errors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
        throw new AppError('UNAUTHORIZED', 'The bearer token is not a valid API key or session token.');
      }
    },
  };
}
