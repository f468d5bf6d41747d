// The sandbox's own time source: it shares no code with the service it stands in for a provider of,
// only the shape of a clock (the service's Clock port fits it), so tests can move both together.
export interface Clock {
  now(): number; // epoch milliseconds
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoTime = (ms: number): string => new Date(ms).toISOString();

export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);
