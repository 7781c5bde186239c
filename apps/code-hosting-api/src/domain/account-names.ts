import { unprocessableEntity } from '@repo/http-errors';

// Gitea's models/user reservedUsernames (current and earlier releases) and reservedUserPatterns.
export const reservedAccountNames: ReadonlySet<string> = new Set([
  '.',
  '..',
  '.well-known',
  'admin',
  'api',
  'assets',
  'attachments',
  'avatar',
  'avatars',
  'captcha',
  'commits',
  'css',
  'debug',
  'devtest',
  'error',
  'explore',
  'favicon.ico',
  'ghost',
  'gitea-actions',
  'help',
  'img',
  'install',
  'issues',
  'js',
  'less',
  'login',
  'manifest.json',
  'metrics',
  'milestones',
  'new',
  'notifications',
  'org',
  'plugins',
  'pulls',
  'raw',
  'repo',
  'repo-avatars',
  'robots.txt',
  'search',
  'serviceworker.js',
  'sitemap.xml',
  'socket',
  'ssh_info',
  'stars',
  'swagger.v1.json',
  'template',
  'user',
  'v2',
]);
export const reservedAccountNamePatterns = ['*.keys', '*.gpg', '*.rss', '*.atom', '*.png'] as const;

export const maxAccountNameLength = 40;
const allowedCharacters = /^[\da-zA-Z][-.\w]*$/;
const forbiddenSequences = /[-._]{2,}|[-._]$/;

/** Why a name cannot be an account name, in Gitea's words, or undefined when it can. */
export function accountNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'name is empty';
  const lower = name.toLowerCase();
  if (reservedAccountNames.has(lower)) return `name is reserved [name: ${name}]`;
  const pattern = reservedAccountNamePatterns.find((candidate) => lower.endsWith(candidate.slice(1)));
  if (pattern) return `name pattern is not allowed [pattern: ${pattern}]`;
  if (!allowedCharacters.test(name) || forbiddenSequences.test(name)) {
    return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  }
  if (name.length > maxAccountNameLength)
    return `name is too long [${name}]: at most ${maxAccountNameLength} characters`;
  return undefined;
}

/** 422 naming the rule the name breaks. */
export function assertUsableAccountName(name: string, field: string): void {
  const problem = accountNameProblem(name);
  if (problem) throw unprocessableEntity(`${field}: ${problem}`);
}

export function accountExistsError(name: string) {
  return unprocessableEntity(`user already exists [name: ${name}]`);
}

// Gitea's repository names: alpha, digits, dash, underscore, dot; a few reserved.
const reservedRepositoryNames: ReadonlySet<string> = new Set(['.', '..', '-']);
const reservedRepositoryPatterns = ['*.git', '*.rss', '*.atom', '*.wiki'] as const;
const repositoryNameCharacters = /^[-.\w]+$/;

export function assertUsableRepositoryName(name: string): void {
  const lower = name.toLowerCase();
  if (reservedRepositoryNames.has(lower)) throw unprocessableEntity(`name: name is reserved [name: ${name}]`);
  const pattern = reservedRepositoryPatterns.find((candidate) => lower.endsWith(candidate.slice(1)));
  if (pattern) throw unprocessableEntity(`name: name pattern is not allowed [pattern: ${pattern}]`);
  if (!repositoryNameCharacters.test(name)) {
    throw unprocessableEntity(
      `name: name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`,
    );
  }
  if (name.length > 100) throw unprocessableEntity('name: must be at most 100 characters');
}

// Gitea's user_model.ValidateEmail character rule.
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

function isValidEmail(email: string): boolean {
  return email.length <= 255 && !email.startsWith('-') && emailPattern.test(email);
}

/** Gitea's 422 for an e-mail address it would not store (users and organizations alike). */
export function assertValidEmail(email: string): void {
  if (!isValidEmail(email)) throw unprocessableEntity(`email: e-mail address is invalid [email: ${email}]`);
}
