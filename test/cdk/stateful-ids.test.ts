// The split into a stack per area (lib/area-stacks.ts) must not replace anything that holds state: a
// table, the envelope key, a bucket, a queue, a secret, the purge state machine, the REST API (its
// id is in every customer's URL) and its stage keep the logical ids they had in the single stack.
// stateful-logical-ids.json was generated from main before the split and is not regenerated: a change
// here is a migration, to be made on purpose, with its own test.
import { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { synthStack } from '../support/synth';

const RECORDED = JSON.parse(
  readFileSync(new URL('./stateful-logical-ids.json', import.meta.url), 'utf8'),
) as Record<'dev' | 'prod', Record<string, string[]>>;

/**
 * The workers' own log groups go with their functions into the areas' stacks (new log groups; the
 * old ones are retained in prod, docs/deploy.md). Logs, not state the service reads.
 */
const MOVED_WITH_THEIR_FUNCTION = [
  'PurgeFinishPurgeLogs7AFAA012',
  'PurgePurgePageLogsBBA8FD0E',
  'SchedulesRefreshSweepLogs8990CBEF',
  'SchedulesSyncSweepLogs4402F576',
  'WorkersDeliverLogs456771B9',
  'WorkersFanOutLogsE640CF80',
  'WorkersSyncWorkerLogs099BEA2B',
];

/**
 * Stateful resources added after the recording, each new (no resource of an earlier deployment is
 * replaced by it): the API's execution log group, the scheduled sweeps' failure queue and the web
 * ACL's request logs.
 */
const ADDED_SINCE_THE_RECORDING = ['ObservabilityApiExecutionLogsA9ABE6B4', 'SchedulesFailuresA71BED24'];
/** The API web ACL's request logs, new with them (prod only: dev has no web ACL). */
const ADDED_IN_PROD = ['FirewallLogs7FB06776'];

const CONTEXT = {
  alarmEmail: 'ops@example.com',
  consoleIssuer: 'https://idp.example.com/',
  consoleAudience: 'connector-event-service',
  consoleJwksUrl: 'https://idp.example.com/.well-known/jwks.json',
};

type Resources = Record<string, { Type: string }>;

describe.each(['dev', 'prod'] as const)('stateful logical ids (%s)', (stage) => {
  const { stack, parent } = synthStack({ stage, context: CONTEXT });
  const parentResources = parent.toJSON().Resources as Resources;
  const recorded = RECORDED[stage];
  const types = Object.keys(recorded);

  it('keeps every stateful resource in the parent stack under its recorded logical id', () => {
    const kept = Object.entries(recorded).flatMap(([type, ids]) =>
      ids.filter((id) => !MOVED_WITH_THEIR_FUNCTION.includes(id)).map((id) => ({ id, type })),
    );
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.map(({ id }) => ({ id, type: parentResources[id]?.Type }))).toEqual(kept);
  });

  it('makes no stateful resource the recording does not know', () => {
    const now = Object.entries(parentResources)
      .filter(([, r]) => types.includes(r.Type))
      .map(([id]) => id)
      .sort();
    const added = [...ADDED_SINCE_THE_RECORDING, ...(stage === 'prod' ? ADDED_IN_PROD : [])];
    const expected = [...Object.values(recorded).flat(), ...added]
      .filter((id) => !MOVED_WITH_THEIR_FUNCTION.includes(id))
      .sort();
    expect(now).toEqual(expected);
  });

  it('puts nothing stateful in an area stack but the log groups of its functions', () => {
    expect(stack.areas.all().length).toBeGreaterThanOrEqual(4);
    const inAreas = stack.areas.all().flatMap((area) =>
      Object.values(Template.fromStack(area).toJSON().Resources as Resources)
        .filter((r) => types.includes(r.Type))
        .map((r) => r.Type),
    );
    expect(new Set(inAreas)).toEqual(new Set(['AWS::Logs::LogGroup']));
    expect(inAreas).toHaveLength(MOVED_WITH_THEIR_FUNCTION.length);
  });
});
