// project-service's registers for the soak's checker: each project has two, its base and its
// settings, each written whole (PUT) and versioned by its own ETag ("b<n>", "s<n>"). The value of
// each write is a token of its own, put in the base's `description` and the settings'
// `mission_statement`, so a read or an event names the write it shows.
import type { Observation, StreamEvent, Write } from '@repo/testing/soak';

export type Json = Record<string, unknown>;

export const baseRegister = (uid: string) => `project:${uid}:base`;
export const settingsRegister = (uid: string) => `project:${uid}:settings`;

/** The revision an ETag names (`"b5"` → 5), or undefined. */
export function revisionOf(etag: string | undefined): number | undefined {
  const match = /^"?[bs](\d+)"?$/.exec(etag ?? '');
  return match ? Number(match[1]) : undefined;
}

/** JSON with sorted keys: equal representations give equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

const SETTINGS_FIELDS = [
  'announcement_date',
  'auditors',
  'meeting_coordinators',
  'mission_statement',
  'writers',
];
const SHARED_FIELDS = ['uid', 'created_at', 'updated_at'];

/** The ProjectBase inside a ProjectFull (a create's answer, a list's item). */
export function basePart(full: Json): Json {
  return Object.fromEntries(Object.entries(full).filter(([key]) => !SETTINGS_FIELDS.includes(key)));
}

/** The ProjectSettings inside a ProjectFull. */
export function settingsPart(full: Json): Json {
  return Object.fromEntries(
    Object.entries(full).filter(([key]) => SETTINGS_FIELDS.includes(key) || SHARED_FIELDS.includes(key)),
  );
}

export const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a create wrote: both registers, with the create's token. */
export function createWrites(uid: string, token: string, answer?: { full: Json; etag?: string }): Write[] {
  return [
    {
      register: baseRegister(uid),
      value: token,
      ...(answer ? { version: revisionOf(answer.etag), state: canonical(basePart(answer.full)) } : {}),
    },
    {
      register: settingsRegister(uid),
      value: token,
      ...(answer ? { state: canonical(settingsPart(answer.full)) } : {}),
    },
  ];
}

/** A base (ProjectBase) or settings (ProjectSettings) representation as a read of its register. */
export function observed(
  register: 'base' | 'settings',
  body: Json,
  extra: Partial<Observation> = {},
): Observation {
  const uid = String(body['uid']);
  return register === 'base'
    ? { register: baseRegister(uid), value: String(body['description']), state: canonical(body), ...extra }
    : {
        register: settingsRegister(uid),
        value: String(body['mission_statement']),
        state: canonical(body),
        ...extra,
      };
}

/** What an event's data shows: the registers after its write (before it, for a deletion and `previous`). */
export function observeProjectEvent(event: StreamEvent): Observation[] {
  const data = event.data;
  if (!isJson(data)) return [];
  switch (event.type) {
    case 'project.created':
      return [observed('base', basePart(data)), observed('settings', settingsPart(data))];
    case 'project.updated':
      return [observed('base', data)];
    case 'project.deleted':
      return [observed('base', data, { before: true })];
    case 'project.settings_updated': {
      const { previous, ...settings } = data;
      return [
        observed('settings', settings),
        ...(isJson(previous)
          ? [observed('settings', { ...previous, uid: data['uid'] }, { before: true })]
          : []),
      ];
    }
    default:
      return [];
  }
}
