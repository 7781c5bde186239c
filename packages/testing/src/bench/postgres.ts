/**
 * The PostgreSQL server the HTTP bench runs on, and a throwaway database per run.
 * BENCH_DATABASE_URL names the server (any database on it; the user needs CREATEDB).
 */
import { urlOfDatabase, withClient } from '../database-template';

export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  return urlOfDatabase(SERVER_URL, name);
}

/** Creates an empty database named after the app and the time; returns its name and URL. */
export async function createThrowawayDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
