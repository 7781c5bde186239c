// Gitea's access token scopes (models/auth/access_token_scope.go).
export const scopeCategories = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type ScopeCategory = (typeof scopeCategories)[number];

export const knownScopes: ReadonlySet<string> = new Set([
  'all',
  'public-only',
  ...scopeCategories.flatMap((category) => [`read:${category}`, `write:${category}`]),
]);

/** The scopes any one of which lets a token read (or write) resources of the category. */
export function grantingScopes(category: ScopeCategory, mode: 'read' | 'write'): string[] {
  return mode === 'read' ? ['all', `write:${category}`, `read:${category}`] : ['all', `write:${category}`];
}

/** Whether a token with these scopes may read (or write) resources of the category. */
export function scopesAllow(
  scopes: readonly string[],
  category: ScopeCategory,
  mode: 'read' | 'write',
): boolean {
  return grantingScopes(category, mode).some((scope) => scopes.includes(scope));
}

/** `public-only` alone does not grant anything; it narrows what the other scopes reach. */
export function isPublicOnly(scopes: readonly string[]): boolean {
  return scopes.includes('public-only');
}
