/**
 * The runtime's WebAssembly API, declared here (@types/node leaves it to the DOM library), for
 * the modules engram carries as bytes (the vector scan, the code cache checksum).
 */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

/** The module `bytes` hold, compiled now (synchronously). */
export function compileWasm(bytes: Uint8Array): object {
  return new WebAssembly.Module(bytes);
}

/** The exports of a new instance of `module` (memory of its own). */
export function instantiateWasm(module: object): unknown {
  return new WebAssembly.Instance(module).exports;
}
