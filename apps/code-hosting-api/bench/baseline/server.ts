/**
 * The baseline server: node:http, a pg pool and bench/baseline/handlers.ts. Started by the bench
 * as `node --import tsx bench/baseline/server.ts` with PORT, DATABASE_URL and ROOT_URL (the
 * service's variables), DATABASE_POOL_MAX (10).
 */
import http from 'node:http';
import { Pool } from 'pg';
import { createBaseline, type BaselineRequest } from './handlers';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX ?? 10),
});
const handle = createBaseline({
  query: async (sql, parameters) => (await pool.query(sql, parameters)).rows,
  rootUrl: process.env.ROOT_URL ?? 'http://localhost:3000/',
});

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const request: BaselineRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    handle(request).then(
      (response) => {
        res.writeHead(response.status, {
          ...response.headers,
          'content-length': String(Buffer.byteLength(response.body)),
        });
        res.end(response.body);
      },
      (error: unknown) => {
        console.error(error);
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"message":"internal error"}');
      },
    );
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end();
});
