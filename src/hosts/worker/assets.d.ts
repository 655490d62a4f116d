// Module types of the Worker's build-time asset imports (wrangler rules in wrangler.toml).

/** Model files: `{ type = "Data", globs = ["**\/*.onnx"] }` loads them as ArrayBuffer. */
declare module '*.onnx' {
  const bytes: ArrayBuffer;
  export default bytes;
}

/** wrangler's default rule turns a .wasm import into a compiled WebAssembly.Module. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
