import type { Request } from 'express';
import { z, type ZodType } from 'zod';
import { SyncHeader, UidParameter, VersionParameter } from './schemas';
import { projectNotFound } from '../domain/access';

/** Validates a value with a schema, naming the parameter in the 400 message. */
export function parsed<T>(schema: ZodType<T>, name: string, value: unknown): T {
  // Wrapped in an object so the issues' paths, and the 400 message, start with the parameter name.
  return z.object({ [name]: schema }).parse({ [name]: value })[name] as T;
}

function singleHeader(req: Request, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function queryValue(req: Request, name: string): unknown {
  return (req.query as Record<string, unknown>)[name];
}

/** `v`: absent or 1. */
export function checkVersion(req: Request): void {
  parsed(VersionParameter, 'v', queryValue(req, 'v'));
}

/** X-Sync: absent, `true` or `false`. Without an event publisher it changes nothing yet. */
export function syncRequested(req: Request): boolean {
  return parsed(SyncHeader, 'X-Sync', singleHeader(req, 'x-sync')) === 'true';
}

export function ifMatchOf(req: Request): string | undefined {
  return singleHeader(req, 'if-match');
}

export function ifNoneMatchOf(req: Request): string | undefined {
  return singleHeader(req, 'if-none-match');
}

/** The uid path parameter of a write: a malformed uid is a 400 (the seed lists 400 for these). */
export function uidForWrite(req: Request): string {
  return parsed(UidParameter, 'uid', req.params['uid']).toLowerCase();
}

/** The uid path parameter of a read: a malformed uid names no project, so 404 (the seed lists no 400 for reads). */
export function uidForRead(req: Request): string {
  const result = UidParameter.safeParse(req.params['uid']);
  if (!result.success) throw projectNotFound();
  return result.data.toLowerCase();
}
