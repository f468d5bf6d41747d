// What a module would otherwise build while it loads (zod schemas, parsed address tables), built on its
// first use instead and kept: a Lambda's module init pays only for what its route touches (issue 27,
// docs/decisions.md "Module init").

/** `build` runs on the first call, once; every call returns what it built. */
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
