import jwt from 'jsonwebtoken';

/** Mints an HS256 token the service accepts when it verifies with `secret`. */
export function mintToken(
  secret: string,
  claims: { principal: string; groups?: string[] },
  expiresIn: jwt.SignOptions['expiresIn'] = '12h',
): string {
  const groups = claims.groups?.length ? { groups: claims.groups } : {};
  return jwt.sign({ principal: claims.principal, sub: claims.principal, ...groups }, secret, {
    algorithm: 'HS256',
    expiresIn,
  });
}
