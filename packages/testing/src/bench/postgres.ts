/**
 * The PostgreSQL server the HTTP bench runs on, and a throwaway database per run.
 * BENCH_DATABASE_URL names the server (any database on it; the user needs CREATEDB).
 */
import { Client } from 'pg';

export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database named after the app and the time; returns its name and URL. */
export async function createThrowawayDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Runs `work` with one connection to the database. */
export async function withDatabase<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
