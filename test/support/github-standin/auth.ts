/**
 * Authentication as GitHub does it for Apps: a JWT signed RS256 with the App's private key for `/app/*`
 * routes, installation tokens (minted by `POST /app/installations/{id}/access_tokens`) for the rest.
 * Static tokens (given in the options) stand for a PAT / Actions token: accepted, no installation.
 */
import { type KeyObject, randomBytes, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Caller, HttpError } from './http.ts';

interface JwtClaims {
  iss?: string | number;
  iat?: number;
  exp?: number;
}

/** Seconds of clock skew tolerated, like GitHub's 60 s. */
const SKEW = 60;

export class TokenBook {
  private readonly minted = new Map<string, { installationId: number; expiresAt: number }>();

  constructor(
    private readonly appId: number,
    private readonly publicKey: KeyObject | undefined,
    /** Static token → login of the user it acts as. */
    private readonly staticTokens: Map<string, string>,
    private readonly botLogin: string,
  ) {}

  mint(installationId: number): { token: string; expiresAt: Date } {
    const token = `ghs_${randomBytes(18).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + 3600_000);
    this.minted.set(token, { installationId, expiresAt: expiresAt.getTime() });
    return { token, expiresAt };
  }

  /** Expires a minted token now, so tests can check the App re-authenticates. */
  revoke(token: string): void {
    this.minted.delete(token);
  }

  identify(headers: IncomingHttpHeaders): Caller {
    const header = headers.authorization;
    if (!header) return { kind: 'anonymous' };
    const m = /^(token|bearer)\s+(\S+)$/i.exec(header);
    if (!m) throw new HttpError(401, 'Bad credentials');
    const credential = m[2] ?? '';
    if (credential.split('.').length === 3 && credential.startsWith('eyJ')) {
      this.verifyJwt(credential);
      return { kind: 'jwt' };
    }
    const login = this.staticTokens.get(credential);
    if (login) return { kind: 'token', login };
    const minted = this.minted.get(credential);
    if (!minted || minted.expiresAt < Date.now()) throw new HttpError(401, 'Bad credentials');
    return { kind: 'token', installationId: minted.installationId, login: this.botLogin };
  }

  private verifyJwt(jwt: string): void {
    if (!this.publicKey) throw new HttpError(401, 'A JSON web token could not be decoded');
    const [h = '', p = '', s = ''] = jwt.split('.');
    let header: { alg?: string };
    let claims: JwtClaims;
    try {
      header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    } catch {
      throw new HttpError(401, 'A JSON web token could not be decoded');
    }
    if (header.alg !== 'RS256') throw new HttpError(401, 'A JSON web token could not be decoded');
    const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), this.publicKey, Buffer.from(s, 'base64url'));
    if (!ok) throw new HttpError(401, 'A JSON web token could not be decoded');
    const nowS = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp < nowS - SKEW) {
      throw new HttpError(
        401,
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
      );
    }
    if (typeof claims.iat !== 'number' || claims.iat > nowS + SKEW || claims.exp - claims.iat > 600 + SKEW) {
      throw new HttpError(
        401,
        "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
      );
    }
    if (String(claims.iss) !== String(this.appId)) {
      throw new HttpError(401, "'Issuer' claim ('iss') must be an Integer");
    }
  }
}
