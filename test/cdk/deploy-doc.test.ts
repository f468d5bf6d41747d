// docs/deploy.md's numbers against the synthesized templates: the workers' concurrency, the stage
// table's thresholds, retention and firewall cap, the buckets tear-down names. A change to lib/ or the
// worker table that the guide does not follow fails here, with the row named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../../lib/service-function';
import { synthStack } from '../support/synth';

type Resources = Record<string, { Properties: Record<string, unknown> }>;
const DOC = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');

const dev = synthStack({ stage: 'dev' }).template;
const prod = synthStack({ stage: 'prod' }).template;

/** A row of the stage table: its dev and prod cells. */
function row(label: string): [string, string] {
  const line = DOC.split('\n').find((l) => l.startsWith(`| ${label} `));
  if (!line) throw new Error(`docs/deploy.md has no stage-table row "${label}"`);
  const [, , devCell, prodCell] = line.split('|').map((c) => c.trim());
  return [devCell!, prodCell!];
}
const number = (cell: string) => Number(/[\d ]+/.exec(cell.replace(/(\d) (\d)/g, '$1$2'))![0].trim());

const alarmThresholds = (template: Template, metricName: string) =>
  new Set(
    Object.values(template.findResources('AWS::CloudWatch::Alarm') as Resources)
      .filter((a) => a.Properties.MetricName === metricName)
      .map((a) => a.Properties.Threshold),
  );
const describedThresholds = (template: Template, text: string) =>
  new Set(
    Object.values(template.findResources('AWS::CloudWatch::Alarm') as Resources)
      .filter((a) => String(a.Properties.AlarmDescription).includes(text))
      .map((a) => a.Properties.Threshold),
  );

describe('docs/deploy.md against the templates', () => {
  it("states the queue workers' concurrency as the event sources' maximum concurrency, in sum and each", () => {
    const caps = Object.values(dev.findResources('AWS::Lambda::EventSourceMapping') as Resources).map(
      (m) => (m.Properties.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency,
    );
    const stated =
      /up to (\d+) invocations at once \(fan-out (\d+), delivery (\d+), import and\s+export steps (\d+)/.exec(
        DOC,
      );
    expect(stated).not.toBeNull();
    const [, total, ...each] = stated!.map(Number);
    expect(total).toBe(caps.reduce((a, b) => a + b, 0));
    expect(each.sort((a, b) => a - b)).toEqual([...caps].sort((a, b) => a - b));
  });

  it.each([
    ['Lambda error-rate alarm', 'ended in an error'],
    ['API 5xx alarm', 'answered 5xx'],
  ])('states the %s thresholds of each stage', (label, text) => {
    const [d, p] = row(label);
    expect(describedThresholds(dev, text)).toEqual(new Set([number(d)]));
    expect(describedThresholds(prod, text)).toEqual(new Set([number(p)]));
  });

  it.each([
    ['failed deliveries alarm (15 min)', 'DeliveriesFailed'],
    ['refresh failures alarm (15 min)', 'TokenRefreshFailures'],
    ['connection throttles alarm (15 min)', 'ConnectionThrottles'],
    ['failed import runs alarm (15 min)', 'SyncRunsFailed'],
    ['failed exports alarm (15 min)', 'ExportJobsFailed'],
    ['failed purge jobs alarm', 'PurgeJobsFailed'],
  ])('states the %s thresholds of each stage', (label, metric) => {
    const [d, p] = row(label);
    expect(alarmThresholds(dev, metric)).toEqual(new Set([number(d)]));
    expect(alarmThresholds(prod, metric)).toEqual(new Set([number(p)]));
  });

  it('states the log retention and the authorizer cache of each stage', () => {
    const retention = (template: Template) =>
      new Set(
        Object.values(template.findResources('AWS::Logs::LogGroup') as Resources).map(
          (g) => g.Properties.RetentionInDays,
        ),
      );
    const days = (cell: string) => ({ '2 weeks': 14, '3 months': 90 })[cell];
    const [d, p] = row('log retention');
    expect(retention(dev)).toEqual(new Set([days(d)]));
    expect(retention(prod)).toEqual(new Set([days(p)]));
    const ttl = (template: Template) =>
      new Set(
        Object.values(template.findResources('AWS::ApiGateway::Authorizer') as Resources).map(
          (a) => a.Properties.AuthorizerResultTtlInSeconds,
        ),
      );
    const [devTtl, prodTtl] = row('authorizer cache');
    expect(ttl(dev)).toEqual(new Set([number(devTtl)]));
    expect(ttl(prod)).toEqual(new Set([number(prodTtl)]));
  });

  it("states the web ACLs' per-address cap, and none in dev", () => {
    const [d, p] = row('WAF web ACLs (API and console)');
    expect(d).toBe('none');
    dev.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const limits = Object.values(prod.findResources('AWS::WAFv2::WebACL') as Resources).flatMap((acl) =>
      (
        acl.Properties.Rules as {
          Statement: { RateBasedStatement?: { Limit: number; EvaluationWindowSec: number } };
        }[]
      )
        .map((r) => r.Statement.RateBasedStatement)
        .filter((s) => s !== undefined),
    );
    expect(limits).toEqual([{ Limit: number(p), EvaluationWindowSec: 300, AggregateKeyType: 'IP' }]);
    expect(p).toMatch(/\/ 5 min per address/);
  });

  it('names as many buckets in the tear-down as the stack has, and retains them in prod', () => {
    const count = Object.keys(dev.findResources('AWS::S3::Bucket')).length;
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];
    expect(DOC).toMatch(new RegExp(`The ${words[count]} buckets \\(`));
    expect(DOC).toMatch(new RegExp(`prod retains .* the ${words[count]} buckets`));
    for (const bucket of Object.values(
      prod.findResources('AWS::S3::Bucket') as Record<string, { DeletionPolicy?: string }>,
    ))
      expect(bucket.DeletionPolicy).toBe('Retain');
  });
});
