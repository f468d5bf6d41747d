// Time is a port so link expiry, retry schedules and auto-disable are tested in milliseconds.
import * as z from 'zod/mini';

export interface Clock {
  now(): number; // epoch milliseconds
  /**
   * The wall clock, for what leaves the service and is checked against another party's clock (a
   * webhook's signature timestamp). The same as now() except where the clock can be moved
   * (development), so a strict receiver still accepts the signature.
   */
  wall?(): number;
}

/** The time to stamp on what another party checks against its own clock. */
export const wallTime = (clock: Clock): number => clock.wall?.() ?? clock.now();

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test (or the local server's /__dev/clock route) can move. */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** The system clock shifted by an offset that can be moved forward (local development only). */
export class OffsetClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  wall(): number {
    return Date.now();
  }
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();

/** What `isoTime` makes (ISO 8601 UTC with milliseconds), as the views' schemas describe it. */
export const isoTimeSchema = z.iso.datetime({ precision: 3 });
export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);
