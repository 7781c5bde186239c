import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

// Express 5 gives every request and response its app's prototypes (app.request, app.response) with
// Object.setPrototypeOf as it starts handling them. On an object Node has already made, that
// changes its hidden class: every later property access on it, by Node's HTTP code as by Express's,
// goes the slow way, and the objects live longer. On a bare handler that costs about 0.07 ms of
// CPU per request (Express 5: 0.09–0.12 ms, made with the prototypes: 0.03 ms; node:http alone:
// 0.02 ms). A server given these options makes them with the app's prototypes from the start, and
// Express's call then changes nothing (V8 returns at once when the prototype is already the one).

type RequestConstructor = (this: IncomingMessage, socket: Socket) => void;
type ResponseConstructor = (this: ServerResponse, req: IncomingMessage, options?: object) => void;

/**
 * http.createServer's options for `app`: its requests and responses made with its own prototypes.
 * Node's IncomingMessage and ServerResponse are plain constructor functions (not classes), so
 * these call them on the object being made; `Reflect.construct` would work with classes too but
 * costs more than it saves.
 */
export function expressServerOptions(app: Express): ServerOptions {
  const makeRequest = IncomingMessage as unknown as RequestConstructor;
  const makeResponse = ServerResponse as unknown as ResponseConstructor;
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    makeRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: object): void {
    makeResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
