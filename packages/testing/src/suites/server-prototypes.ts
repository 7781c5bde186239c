import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServerPrototypesOptions {
  /** The app as main.ts builds it: its listener, with the options its server is created with. */
  app(): { app: http.RequestListener & { serverOptions: http.ServerOptions }; close(): Promise<void> };
  /** Paths answered without a database: a probe, and one no route has. */
  paths: string[];
}

/**
 * The server's requests and responses are made with the Express app's prototypes (the app's
 * express-server.ts): Express 5 sets them on every request, and changing an object's prototype
 * once Node has made it slows every later access to it. Checked where the server hands a request
 * over and once it has been answered: the prototypes must be the same objects, and not Node's own.
 */
export function describeServerPrototypes({ app: makeApp, paths }: ServerPrototypesOptions): void {
  describe("the server's requests and responses", () => {
    it("are made with the app's prototypes: Express's own setting of them changes nothing", async () => {
      const { app, close } = makeApp();
      const server = http.createServer(app.serverOptions, app);
      const seen: { born: object[]; answered: object[] }[] = [];
      server.prependListener('request', (req, res) => {
        const born = [Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object];
        res.once('finish', () =>
          seen.push({
            born,
            answered: [Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object],
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        for (const path of paths) {
          const response = await fetch(`http://127.0.0.1:${port}${path}`);
          await response.arrayBuffer();
        }
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await close();
      }
      expect(seen).toHaveLength(paths.length);
      for (const { born, answered } of seen) {
        expect(born[0]).not.toBe(http.IncomingMessage.prototype);
        expect(born[1]).not.toBe(http.ServerResponse.prototype);
        expect(answered[0]).toBe(born[0]);
        expect(answered[1]).toBe(born[1]);
      }
    });
  });
}
