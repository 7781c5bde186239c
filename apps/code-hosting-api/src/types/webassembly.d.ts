// Generated from apps/project-service/src/types/webassembly.d.ts by `npm run sync:copies`: edit that file, not this copy.
// Node 20 runs WebAssembly, but @types/node 20 leaves it to the DOM lib, which
// a server has no business loading. Declare the part the schema engine uses.
declare namespace WebAssembly {
  type Module = object;
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  function compile(bytes: Uint8Array): Promise<Module>;
  function instantiate(module: Module, imports?: Record<string, object>): Promise<Instance>;
}
