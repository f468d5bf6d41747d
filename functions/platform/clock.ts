// Time is a port so link expiry, retry schedules and auto-disable are tested in milliseconds.
import * as z from 'zod/mini';
import { lazy } from './lazy';

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

/**
 * Where the emulated AWS runtime's execution environment (a worker running a function's bundle) puts
 * the development clock (LOCAL_TEST_HOOKS) before the bundle loads, for the deployed composition to
 * use instead of the system clock: the tests move the server's clock, and the functions must see it.
 * Never set in Lambda.
 */
export const HOST_CLOCK = Symbol.for('connector-event-service.host-clock');

/** The clock a deployed composition runs on: the host's development clock if any, else the system's. */
export const deployedClock = (): Clock => (globalThis as { [HOST_CLOCK]?: Clock })[HOST_CLOCK] ?? systemClock;

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
export const isoTimeSchema = lazy(() => z.iso.datetime({ precision: 3 }));
export const epochSeconds = (ms: number): number => Math.floor(ms / 1000);
