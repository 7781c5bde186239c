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
}

/** The principal the development admin token is minted for. */
export const DEVELOPMENT_ADMIN = 'dev-admin';
