// What a module would otherwise build while it loads (zod schemas, parsed address tables), built on its
// first use instead and kept: a Lambda's module init pays only for what its route touches
// (docs/decisions.md, "Module init").

/**
 * `build` runs on the first call, once; every call returns what it built. Route entries read lazy
 * schemas through getters (an object literal with getters is pure to esbuild, so an unused entry is
 * still dropped). A lazy value only the OpenAPI generator reads, held by a module every Lambda loads, is
 * marked with esbuild's `@__PURE__` comment at the call: esbuild then drops it where nothing reads it
 * (it honours `@__NO_SIDE_EFFECTS__` on a function within that function's own file only).
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
