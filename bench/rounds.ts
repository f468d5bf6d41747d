// The import benches' rounds: the pipeline interleaved with its raw baseline at two widths (the
// pipeline's concurrency and four times it), the order rotating by round, after a warm-up pass of the raw
// loop, so a busy neighbour or the disk's state falls on all three alike; then the faster width by its
// median is the baseline (the fastest plain way), the other shown beside it.
import { SYNC_CONCURRENCY } from '../functions/connectors/domain/sync-policy';

/** The raw loop's widths: the pipeline's concurrency and four times it. */
export const RAW_WIDTHS = [SYNC_CONCURRENCY, SYNC_CONCURRENCY * 4] as const;

export interface Rounds<T> {
  /** The raw loop's warm-up pass, at the pipeline's concurrency (not a round). */
  warmUp: T;
  pipeline: T[];
  /** Per width of RAW_WIDTHS, its rounds. */
  raw: [T[], T[]];
}

export async function interleavedRounds<T>(
  rounds: number,
  /** A pipeline round, given the warm-up pass (what the raw loop found, to check the round against). */
  pipeline: (warmUp: T) => Promise<T>,
  raw: (width: number) => Promise<T>,
): Promise<Rounds<T>> {
  const out: Rounds<T> = { warmUp: await raw(RAW_WIDTHS[0]), pipeline: [], raw: [[], []] };
  const turns = [
    async () => void out.pipeline.push(await pipeline(out.warmUp)),
    ...RAW_WIDTHS.map((width, i) => async () => void out.raw[i]!.push(await raw(width))),
  ];
  for (let r = 0; r < rounds; r++)
    for (let t = 0; t < turns.length; t++) await turns[(t + r) % turns.length]!();
  return out;
}

/**
 * Of the raw loop's two widths (each summarised), the faster by `rate` is the baseline; `index` is its
 * place in RAW_WIDTHS (and in Rounds.raw).
 */
export function baseline<S>(
  raw: [S, S],
  rate: (summary: S) => number,
): { raw: S & { concurrency: number }; other: S & { concurrency: number }; index: 0 | 1 } {
  const index = rate(raw[1]) > rate(raw[0]) ? 1 : 0;
  const other = index === 1 ? 0 : 1;
  return {
    raw: { ...raw[index], concurrency: RAW_WIDTHS[index] },
    other: { ...raw[other], concurrency: RAW_WIDTHS[other] },
    index,
  };
}
