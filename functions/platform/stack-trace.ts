// An error's stack with its bundle frames at their original source lines, worked out when the error is
// logged: the deployed functions run without --enable-source-maps, which made Node read and parse the
// whole map at every cold start (docs/decisions.md, "Source maps read at the first logged error"). A
// package holds its maps only when debugging is switched on (lib/service-function.ts, SourceMaps);
// without them every frame stays as it is.
// Nothing is imported at load: an ES import of node:fs costs about 2 ms of init (its ES module facade
// reads every export, which loads fs/promises, the watchers and streams); process.getBuiltinModule
// gives the modules at first need.
import type { SourceMap } from 'node:module';

/** Bounds: a stack's frames looked at (lines of at most 1,000 characters), and a frame's bundle or map. */
const MAX_FRAMES = 50;
const MAX_FILE_BYTES = 8 << 20;

// `    at name (file:///var/task/index.mjs:1:48213)`, `    at file:///var/task/index.mjs:1:48213`: an ES
// module's frames name its URL (a bundle is one).
const FRAME = /^(\s+at (?:async )?)(?:(.+) \()?(file:\/\/[^()]+):(\d+):(\d+)\)?$/;

/** Per file: its parsed map, or null (none, unreadable, too large). Few files: a Lambda has one bundle. */
const maps = new Map<string, SourceMap | null>();

function read(url: URL): string | null {
  const fs = process.getBuiltinModule('node:fs');
  return fs.statSync(url).size > MAX_FILE_BYTES ? null : fs.readFileSync(url, 'utf8');
}

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map !== undefined) return map;
  map = null;
  try {
    const url = new URL(file);
    const ref = read(url)?.match(/\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
    const mapUrl = ref && new URL(ref, url);
    const payload = mapUrl && mapUrl.protocol === 'file:' && read(mapUrl);
    if (payload) map = new (process.getBuiltinModule('node:module').SourceMap)(JSON.parse(payload));
  } catch {
    // No map for this file: its frames stay as they are.
  }
  if (maps.size > 64) maps.clear();
  maps.set(file, map);
  return map;
}

/** What `findEntry` answers (`{}` where nothing maps); `name` is missing from @types/node 20's type. */
type Entry = { originalSource?: string; originalLine: number; originalColumn: number; name?: string };
const find = (map: SourceMap, frame: RegExpMatchArray): Entry =>
  map.findEntry(+frame[4]! - 1, +frame[5]! - 1) as Entry;

/**
 * `error.stack` with each frame of a bundle that has a source map (`//# sourceMappingURL=` beside it)
 * rewritten to the original file (as the map names it, without leading `../`), line, column and, where
 * the calling frame's mapping names it, function. The first call per bundle reads and parses its map.
 * Frames without a map, and every frame when anything fails, are returned as they are. Never throws.
 */
export function mappedStack(error: Error): string | undefined {
  let stack: string | undefined;
  try {
    stack = error.stack;
    if (!stack) return stack;
    const lines = stack.split('\n');
    const frames = lines.slice(0, MAX_FRAMES).map((line) => (line.length < 1000 ? line.match(FRAME) : null));
    return lines
      .map((line, i) => {
        const frame = frames[i];
        const map = frame && mapOf(frame[3]!);
        if (!map) return line;
        const entry = find(map, frame!);
        if (!entry.originalSource) return line;
        // A map names a function where it is called: at the next frame's position, in that frame's file
        // (another chunk's map when a chunk's function was called from the bundle).
        const caller = frames[i + 1];
        const callerMap = caller && (caller[3] === frame![3] ? map : mapOf(caller[3]!));
        const name = (callerMap && find(callerMap, caller!).name) || frame![2];
        const at = `${entry.originalSource.replace(/^(\.\.?\/)+/, '')}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
        return frame![1] + (name ? `${name} (${at})` : at);
      })
      .join('\n');
  } catch {
    return stack;
  }
}

/**
 * Runs `work`; what it throws is logged with its mapped stack, then thrown on. For the functions whose
 * errors reach the Lambda runtime (the schedules), which prints only the minified stack.
 */
export async function loggedFailure<T>(
  log: { error(message: string, fields: Record<string, unknown>): void },
  message: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    log.error(message, { error, stack: error instanceof Error ? mappedStack(error) : undefined });
    throw error;
  }
}
