// The local runtime's data directory cannot be used as it is: the message names the file and what to
// do, and the server refuses to start rather than answer 500s or quietly start over.
export class LocalDataError extends Error {
  override readonly name = 'LocalDataError';
}

/** Reads a JSON file of the data directory; a corrupt one is a LocalDataError naming it and the remedy. */
export function parseDataFile<T>(path: string, text: string, remedy: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new LocalDataError(
      `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}): ${remedy}`,
    );
  }
}
