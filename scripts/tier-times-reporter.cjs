/* global module, process */
// A jest reporter for CI (.ci/run): each tier's (jest project's) time, so the e2e-aws tier's cost is
// seen on every run. The e2e and e2e-aws tiers run the same files, so only the project a
// file ran in tells them apart: jest's JSON output has no project, a reporter does.
// Per tier: the sum of its files' durations (worker time) and its span, first start to last end.
class TierTimesReporter {
  constructor() {
    this.tiers = new Map();
  }

  onTestResult(test, result) {
    const name = test.context.config.displayName?.name ?? 'default';
    const tier = this.tiers.get(name) ?? { files: 0, sumMs: 0, start: Infinity, end: 0 };
    const { start, end } = result.perfStats;
    tier.files += 1;
    tier.sumMs += end - start;
    tier.start = Math.min(tier.start, start);
    tier.end = Math.max(tier.end, end);
    this.tiers.set(name, tier);
  }

  onRunComplete() {
    const s = (ms) => `${Math.round(ms / 1000)} s`;
    const lines = [...this.tiers].map(
      ([name, t]) => `  ${name}: ${t.files} files, ${s(t.sumMs)} of file time, ${s(t.end - t.start)} span`,
    );
    process.stdout.write(`Tier times:\n${lines.join('\n')}\n`);
  }
}

module.exports = TierTimesReporter;
