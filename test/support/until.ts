/**
 * Polls `probe` every 100 ms until it returns something other than undefined, or fails after `ms`
 * with a message naming `what` was awaited and the last thing the probe said (its last error, or
 * that it kept answering undefined).
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last = 'the probe kept answering undefined';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = `the probe's last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() > deadline) throw new Error(`Waited ${ms} ms for ${what}; ${last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
