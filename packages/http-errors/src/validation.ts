import { HttpError } from './http-error';
import { isRecord, readNumber, readProperty, readString, type UnknownRecord } from './guards';

/** One failing rule, as sent in `details` (the issue's `input` is left out: it may hold secrets). */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

interface ZodIssueLike extends UnknownRecord {
  path: PropertyKey[];
  message: string;
  code: string;
}

// Duck-typed rather than `instanceof`: zod is not a runtime dependency of this package,
// and zod v4 (`ZodError`), zod/mini and zod/v4/core (`$ZodError`) all share this shape.
const ZOD_ERROR_NAMES = new Set(['ZodError', '$ZodError']);

function isZodIssue(value: unknown): value is ZodIssueLike {
  return (
    isRecord(value) &&
    Array.isArray(value['path']) &&
    typeof value['message'] === 'string' &&
    typeof value['code'] === 'string'
  );
}

function zodIssues(error: unknown): ZodIssueLike[] | undefined {
  const name = readString(error, 'name');
  const issues = readProperty(error, 'issues');
  if (name === undefined || !ZOD_ERROR_NAMES.has(name) || !Array.isArray(issues)) return undefined;
  return issues.filter(isZodIssue);
}

function pathSegments(path: PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
}

/** `owner.repos[0].name` style. */
function formatPath(path: PropertyKey[]): string {
  return pathSegments(path).reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}

/** `/^[a-z]+$/` → `^[a-z]+$`; zod reports regexes in literal form. */
function stripRegexDelimiters(pattern: string): string {
  const literal = /^\/(.*)\/[a-z]*$/s.exec(pattern);
  return literal?.[1] ?? pattern;
}

const UNITS: Readonly<Record<string, string>> = {
  string: ' characters',
  array: ' items',
  set: ' items',
  file: ' bytes',
};

function describeBound(issue: ZodIssueLike, direction: 'min' | 'max'): string {
  const bound = readProperty(issue, direction === 'min' ? 'minimum' : 'maximum');
  const origin = readString(issue, 'origin') ?? '';
  const value = `${String(bound)}${UNITS[origin] ?? ''}`;
  if (readProperty(issue, 'exact') === true) return `must be exactly ${value}`;
  const inclusive = readProperty(issue, 'inclusive') !== false;
  if (direction === 'min') return inclusive ? `must be at least ${value}` : `must be greater than ${value}`;
  return inclusive ? `must be at most ${value}` : `must be less than ${value}`;
}

function describeFormat(issue: ZodIssueLike): string {
  const format = readString(issue, 'format') ?? 'format';
  switch (format) {
    case 'regex':
      return `must match ${stripRegexDelimiters(readString(issue, 'pattern') ?? '')}`;
    case 'starts_with':
      return `must start with "${readString(issue, 'prefix') ?? ''}"`;
    case 'ends_with':
      return `must end with "${readString(issue, 'suffix') ?? ''}"`;
    case 'includes':
      return `must include "${readString(issue, 'includes') ?? ''}"`;
    default:
      return `must be a valid ${format}`;
  }
}

function describeAllowedValues(values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const listed = values.map((value) => JSON.stringify(value) ?? String(value));
  return listed.length === 1 ? `must be ${listed[0]}` : `must be one of ${listed.join(', ')}`;
}

function describeType(issue: ZodIssueLike): string {
  // zod reports no structured "received" field; its English message ends this way for missing values.
  if (issue.message.endsWith('received undefined')) return 'is required';
  return `expected ${readString(issue, 'expected') ?? 'another type'}`;
}

/** A short rule description from the issue's structured fields; zod's own message otherwise. */
function describeRule(issue: ZodIssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return describeType(issue);
    case 'too_small':
      return describeBound(issue, 'min');
    case 'too_big':
      return describeBound(issue, 'max');
    case 'invalid_format':
      return describeFormat(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(readNumber(issue, 'divisor'))}`;
    case 'invalid_value':
      return describeAllowedValues(issue['values']) ?? issue.message;
    case 'invalid_union':
      return describeAllowedValues(issue['options']) ?? 'does not match any allowed variant';
    case 'unrecognized_keys': {
      const keys = readProperty(issue, 'keys');
      return Array.isArray(keys) ? `unrecognized keys: ${keys.join(', ')}` : issue.message;
    }
    default:
      // 'custom' (refine) and anything newer: the schema author's message is the best description.
      return issue.message;
  }
}

function describeIssue(issue: ZodIssueLike): string {
  const path = formatPath(issue.path);
  const rule = describeRule(issue);
  return path === '' ? rule : `${path}: ${rule}`;
}

function toValidationIssue(issue: ZodIssueLike): ValidationIssue {
  return { path: pathSegments(issue.path), message: issue.message, code: issue.code };
}

export function fromZodError(error: unknown, validationStatus: 400 | 422): HttpError | undefined {
  const issues = zodIssues(error);
  if (issues === undefined) return undefined;
  const message = issues.length === 0 ? 'invalid request' : issues.map(describeIssue).join('; ');
  // No `cause`: zod issues can carry the rejected input (`reportInput`).
  return new HttpError(validationStatus, message, { details: issues.map(toValidationIssue) });
}
