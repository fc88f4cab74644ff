import { randomBytes } from 'node:crypto';
import { Collection, Store } from '../store/store';
import { EmulatorUser, findUser } from './users';

export interface AccessTokenRecord {
  userId: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

export interface RefreshTokenRecord {
  userId: string;
  clientId: string;
  scopes: string[];
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scopes: string[];
}

/**
 * Access and refresh tokens of the emulator. Tokens are opaque random strings kept in the store, so
 * they survive a restart like Google's do. Lifetime is configurable so clients can test refresh.
 */
export class TokenService {
  private readonly accessTokens: Collection<AccessTokenRecord>;
  private readonly refreshTokens: Collection<RefreshTokenRecord>;
  private pruneAtSize = 1000;

  constructor(store: Store, private readonly accessTokenLifetimeSeconds: number, private readonly now: () => number = Date.now) {
    this.accessTokens = store.collection('auth.accessTokens');
    this.refreshTokens = store.collection('auth.refreshTokens');
  }

  /** Issues a fresh pair for a user (after consent, or for the no-browser developer token). */
  issue(userId: string, clientId: string, scopes: string[]): IssuedTokens {
    const refreshToken = `1//emu-${randomBytes(24).toString('base64url')}`;
    this.refreshTokens.set(refreshToken, { userId, clientId, scopes });
    return { ...this.issueAccessToken(userId, clientId, scopes), refreshToken };
  }

  /** Issues an access token alone: Google's answer to `access_type=online`, or to a repeat grant without `prompt=consent`. */
  issueAccessOnly(userId: string, clientId: string, scopes: string[]): Omit<IssuedTokens, 'refreshToken'> {
    return this.issueAccessToken(userId, clientId, scopes);
  }

  /** Who a refresh token belongs to, if it is known and not revoked. */
  describeRefreshToken(refreshToken: string): RefreshTokenRecord | undefined {
    return this.refreshTokens.get(refreshToken);
  }

  /** Ends a user's whole grant to a client: every refresh and access token (Google's answer to revoking any one of them). */
  revokeGrant(userId: string, clientId: string): void {
    for (const [key, record] of [...this.refreshTokens.entries()]) {
      if (record.userId === userId && record.clientId === clientId) this.refreshTokens.delete(key);
    }
    for (const [key, record] of [...this.accessTokens.entries()]) {
      if (record.userId === userId && record.clientId === clientId) this.accessTokens.delete(key);
    }
  }

  /** Exchanges a refresh token for a new access token; undefined when it is unknown or revoked. */
  refresh(refreshToken: string, clientId: string): Omit<IssuedTokens, 'refreshToken'> | undefined {
    const record = this.refreshTokens.get(refreshToken);
    if (!record || record.clientId !== clientId) return undefined;
    return this.issueAccessToken(record.userId, record.clientId, record.scopes);
  }

  /** The user an access token stands for, if it is known and not expired. */
  verify(accessToken: string): EmulatorUser | undefined {
    const record = this.accessTokens.get(accessToken);
    if (!record) return undefined;
    if (record.expiresAt <= this.now()) {
      this.accessTokens.delete(accessToken);
      return undefined;
    }
    return findUser(record.userId);
  }

  describe(accessToken: string): AccessTokenRecord | undefined {
    const record = this.accessTokens.get(accessToken);
    return record && record.expiresAt > this.now() ? record : undefined;
  }

  /** Revokes an access or refresh token; revoking a refresh token also ends its user's access tokens for that client. */
  revoke(token: string): boolean {
    const refresh = this.refreshTokens.get(token);
    if (refresh) {
      this.refreshTokens.delete(token);
      for (const [key, access] of [...this.accessTokens.entries()]) {
        if (access.userId === refresh.userId && access.clientId === refresh.clientId) this.accessTokens.delete(key);
      }
      return true;
    }
    return this.accessTokens.delete(token);
  }

  private issueAccessToken(userId: string, clientId: string, scopes: string[]): Omit<IssuedTokens, 'refreshToken'> {
    const accessToken = `ya29.emu-${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(accessToken, { userId, clientId, scopes, expiresAt: this.now() + this.accessTokenLifetimeSeconds * 1000 });
    this.pruneExpired();
    return { accessToken, expiresIn: this.accessTokenLifetimeSeconds, scopes };
  }

  private pruneExpired(): void {
    // Amortised cleanup: scan only once the table has doubled since the last scan, so a store full of
    // live tokens does not make every issue a full scan.
    if (this.accessTokens.size < this.pruneAtSize) return;
    const now = this.now();
    for (const [key, record] of [...this.accessTokens.entries()]) if (record.expiresAt <= now) this.accessTokens.delete(key);
    this.pruneAtSize = Math.max(1000, this.accessTokens.size * 2);
  }
}
