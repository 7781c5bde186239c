/** How tokens are verified and who is a platform admin. */
export type VerificationKey =
  | { kind: 'secret'; secret: string }
  | { kind: 'public-key'; publicKeyPem: string }
  | { kind: 'jwks'; url: string };

export interface AuthConfig {
  key: VerificationKey;
  issuer?: string;
  audience?: string;
  adminPrincipals: string[];
  adminGroup?: string;
  /**
   * Refuse a token without `exp` (JWT_REQUIRE_EXP): a leaked one would never expire. Only `false`
   * accepts one, for a gateway that mints tokens without it.
   */
  requireExp?: boolean;
}

/** The principal the development admin token is minted for. */
export const DEVELOPMENT_ADMIN = 'dev-admin';
