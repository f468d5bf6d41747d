// A model-based test of the invariant in docs/decisions.md ("Import runs: the vault mirrors the
// source"): for every provider's fake, random sequences of source changes (create, modify,
// delete, rename, move in, out and between folders, folder delete and restore, restore, a feed reset,
// throttling) interleaved with runs of both
// modes, the core driven in-process (the sync worker's handler, each queue message handed to it) over
// real HTTP to the sandbox. After every run that succeeds, the link's live documents are exactly the
// files under the linked container (ids, names, versions and bytes). A run is a changes run or a full one; a changes
// run's blind spots (a restore or a move out its provider's feed does not report) are checked after
// the next full run only, as the reconcile period bounds them.
//
// Sequences come from fast-check with a fixed seed (MIRROR_MODEL_SEED), MIRROR_MODEL_SEQUENCES per
// provider; a failure prints the seed, the shrunk sequence and the path to replay it (fast-check's
// report), and the steps as they ran. `npm run soak` runs many more.
import { connectorContext } from '../../functions/connectors/app/context';
import { randomBytes } from 'node:crypto';
import * as fc from 'fast-check';
import type { SQSEvent } from 'aws-lambda';
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import { create as createSyncWorker } from '../../functions/connectors/api/handlers/sync-worker';
import { getConnectorJob } from '../../functions/connectors/app/job-status';
import { createLink, listLinkDocuments } from '../../functions/connectors/app/links';
import { startRun } from '../../functions/connectors/app/sync-runs';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { STATE_KEY_ENV, envConfig } from '../../functions/connectors/infra/config';
import { PROVIDER_IDS } from '../../functions/connectors/providers';
import { registerSandboxClients } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { SandboxProvider } from '../../sandbox';
import { startSandboxProvider } from '../../sandbox';
import { ManualClock } from '../../functions/platform/clock';
import { Logger } from '../../functions/platform/logger';
import { connectInProcess } from '../support/connect';

const ORG = 'org_unitmirroraaaaaaaaaa';
const BASE_URL = 'http://localhost:3997';
const log = new Logger({}, 'error');
const SEED = Number(process.env.MIRROR_MODEL_SEED ?? 20261127);
const SEQUENCES = Number(process.env.MIRROR_MODEL_SEQUENCES ?? 100);
const STEPS = Number(process.env.MIRROR_MODEL_STEPS ?? 14);

let sandbox: SandboxProvider;
let config: ConnectorConfig;
let clock: ManualClock;
let deps: LocalDeps;
let worker: ReturnType<typeof createSyncWorker>;

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  sandbox = await startSandboxProvider({ clock, exposeIssued: true });
  Object.assign(process.env, registerSandboxClients(sandbox, BASE_URL), {
    [STATE_KEY_ENV]: randomBytes(32).toString('base64url'),
  });
  config = envConfig;
  deps = createLocalDeps({ clock });
  worker = createSyncWorker(deps);
});

afterAll(() => sandbox.close());

/** Hands each due message of the syncs queue to the worker, moving the clock past delays. */
async function drain() {
  for (let idle = 0, handled = 0; idle < 400 && handled < 2_000;) {
    const bodies = deps.queues.syncs.drain();
    if (!bodies.length) {
      if (deps.queues.syncs.size === 0) return;
      clock.advance(15_000);
      idle++;
      continue;
    }
    for (const body of bodies) {
      const { batchItemFailures } = await worker({
        Records: [{ messageId: `m-${handled}`, body, attributes: { ApproximateReceiveCount: '1' } }],
      } as unknown as SQSEvent);
      if (batchItemFailures.length) await deps.queues.syncs.send({ body });
      handled++;
    }
  }
}

interface SandboxFile {
  id: string;
  name: string;
  container_id: string;
  path: string;
  /** The fake's own version number of the file (each provider's API reports it in its own form). */
  version: number;
  size: number;
  sha256: string;
}

async function hook(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) return { status: response.status, body: undefined };
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
}

const OPS = [
  'create',
  'create',
  'modify',
  'delete',
  'rename',
  'move_out',
  'move_in',
  'move_within',
  'move_folder',
  'move_folder',
  'delete_folder',
  'restore_folder',
  'restore',
  'reset',
  'throttle',
  'run',
  'run',
  'run_full',
] as const;
/** A step: the operation, and a number that picks what it acts on among what there is then. */
const stepsArbitrary = fc.array(fc.record({ op: fc.constantFrom(...OPS), pick: fc.nat() }), {
  minLength: STEPS,
  maxLength: STEPS,
});
let runs = 0;

describe.each(PROVIDER_IDS)('%s', (provider) => {
  it(`holds the invariant after every run (seed ${SEED}, ${SEQUENCES} sequences of ${STEPS} steps)`, async () => {
    await fc.assert(
      fc.asyncProperty(stepsArbitrary, async (steps) => {
        const sequence = runs++;
        const account = `acct-model-${provider}-${SEED}-${sequence}`;
        const where = `provider ${provider}, sequence ${sequence} (MIRROR_MODEL_SEED=${SEED})`;
        const seed = sequence;
        let current = 0;
        const random = { pick: <T>(items: T[]): T => items[current % items.length]! };
        const history: string[] = [];
        try {
          const connectionId = await connectInProcess(deps, config, {
            organizationId: ORG,
            account,
            provider,
            baseUrl: BASE_URL,
          });
          const ids = { provider, account_id: account };
          const files = async (): Promise<SandboxFile[]> =>
            (
              (await hook(`/__sandbox/files?provider=${provider}&account_id=${account}`)).body as {
                files: SandboxFile[];
              }
            ).files;
          const seeded = await files();
          const home = seeded.find((f) => f.path.split('/').length === 3)!;
          const prefix = home.path.slice(0, home.path.lastIndexOf('/') + 1);
          const container = home.container_id;
          const outside = seeded.find((f) => !f.path.startsWith(prefix) && f.path.split('/').length === 3);
          const link = await createLink(connectorContext(deps, config, { log: log }), ORG, connectionId, {
            vault_id: `vlt_model_${provider}`,
            source: { id: container },
          });
          const deleted: string[] = [];
          /** The version recorded for each version of the fake's file, and the content of each recorded version. */
          const versions = new Map<string, string>();
          let names = 0;
          // After a full run the whole invariant holds; after a changes run, what the feed reports.
          let blind = false;
          const under = (f: SandboxFile) => f.path.startsWith(prefix);
          const check = async (mode: 'changes' | 'full') => {
            const started = await startRun(deps, ORG, link.id, 'api', log, mode);
            await drain();
            const job = (await getConnectorJob(deps, ORG, started.id)) as unknown as {
              status: string;
              reason?: string;
            };
            expect({ where, history, status: job.status, reason: job.reason }).toMatchObject({
              status: 'succeeded',
            });
            if (mode === 'full' || (job as { mode?: string }).mode === 'full') blind = false;
            if (blind) return;
            const source = (await files()).filter(under);
            const documents = (await listLinkDocuments(deps, ORG, link.id, { limit: 200, offset: 0 })).data;
            const live = documents.filter((d) => d.status === 'imported');
            // Ids, names, and the bytes the vault holds for each (its document's size and digest).
            const held = await Promise.all(
              live.map(async (d) => {
                const stored = await deps.vault.get({
                  organizationId: ORG,
                  vaultId: d.vault_id,
                  objectId: d.document_id,
                });
                return [d.source.id, d.source.name, stored?.size, stored?.sha256];
              }),
            );
            expect({ where, history, live: held.sort() }).toEqual({
              where,
              history,
              live: source.map((f) => [f.id, f.name, f.size, f.sha256]).sort(),
            });
            // Versions: each provider names a version its own way (a rev, an eTag, a DocumentVersion id),
            // so the recorded one is checked against the fake's file as it changed: a file the fake did
            // not change since keeps the version recorded then, and a recorded version stands for one
            // content only (a new content was recorded under a new version).
            for (const d of live) {
              const file = source.find((f) => f.id === d.source.id)!;
              const recorded = `${d.source.version}`;
              const seen = {
                recorded: versions.get(`${file.id}@${file.version}`) ?? recorded,
                content: versions.get(`${file.id}#${recorded}`) ?? file.sha256,
              };
              expect({ where, history, file: file.id, ...seen }).toEqual({
                where,
                history,
                file: file.id,
                recorded,
                content: file.sha256,
              });
              versions.set(`${file.id}@${file.version}`, recorded);
              versions.set(`${file.id}#${recorded}`, file.sha256);
            }
          };
          await check('changes');
          const deletedFolders: string[] = [];
          for (const [step, { op, pick }] of steps.entries()) {
            current = pick;
            const mine = (await files()).filter(under);
            // Folders under the container (drive-shaped sources have some; matters have none).
            const folders = [...new Set(mine.map((f) => f.container_id))].filter((id) => id !== container);
            history.push(op);
            if (op === 'create')
              await hook('/__sandbox/files', {
                ...ids,
                container_id: container,
                name: `m-${seed}-${names++}.txt`,
                content: `v${step}`,
              });
            else if (op === 'modify' && mine.length) {
              const file = random.pick(mine);
              await hook('/__sandbox/files', {
                ...ids,
                container_id: file.container_id,
                name: file.name,
                content: `changed ${step}`,
              });
            } else if (op === 'delete' && mine.length) {
              const file = random.pick(mine);
              await hook(
                `/__sandbox/files/${[provider, account, file.id].map(encodeURIComponent).join('/')}`,
                undefined,
                'DELETE',
              );
              deleted.push(file.id);
              // iManage's search by edit date does not list a deleted document: the reconcile's.
              if (provider === 'imanage') blind = true;
            } else if (op === 'rename' && mine.length) {
              const file = random.pick(mine);
              await hook('/__sandbox/move', {
                ...ids,
                file_id: file.id,
                container_id: file.container_id,
                name: `r-${seed}-${names++}.txt`,
              });
            } else if (op === 'move_out' && mine.length && outside) {
              await hook('/__sandbox/move', {
                ...ids,
                file_id: random.pick(mine).id,
                container_id: outside.container_id,
              });
              // A file leaving the container is not in these feeds (the reconcile's): Clio's matter listing,
              // the sandbox APIs' feeds (scoped to where files are now).
              if (['clio', 'practice', 'drive', 'imanage'].includes(provider)) blind = true;
            } else if (op === 'move_in' && outside) {
              const theirs = (await files()).filter((f) => !under(f));
              if (theirs.length)
                await hook('/__sandbox/move', {
                  ...ids,
                  file_id: random.pick(theirs).id,
                  container_id: container,
                  name: `i-${seed}-${names++}.txt`,
                });
            } else if (op === 'move_within' && mine.length && folders.length) {
              const file = random.pick(mine);
              const to = [container, ...folders].find((id) => id !== file.container_id)!;
              await hook('/__sandbox/move', { ...ids, file_id: file.id, container_id: to });
            } else if (op === 'move_folder') {
              // A folder with its files out of the container, into it, or between its folders.
              const all = await files();
              const dirOf = new Map(
                all.map((f) => [f.container_id, f.path.slice(0, f.path.lastIndexOf('/'))]),
              );
              const theirs = [...dirOf.keys()].filter(
                (id) => !`${dirOf.get(id)}/`.startsWith(prefix) && !prefix.startsWith(`${dirOf.get(id)}/`),
              );
              const way = (['out', 'in', 'between'] as const)[pick % 3]!;
              const [folder, to] =
                way === 'out'
                  ? [random.pick(folders), outside?.container_id]
                  : way === 'in'
                    ? [random.pick(theirs), container]
                    : [random.pick(folders), random.pick([container, ...folders])];
              history[history.length - 1] = `move_folder ${way}`;
              const moved =
                folder && to && folder !== to
                  ? await hook('/__sandbox/move-folder', {
                      ...ids,
                      folder_id: folder,
                      container_id: to,
                      name: `f-${seed}-${names++}`,
                    })
                  : undefined;
              // Drive's feed names the folder alone (its files are not reported), and the sandbox's drive
              // feed is scoped to where files are now: those wait for the reconcile.
              // iManage's search by edit date: a folder's move edits none of its documents' profiles.
              if (
                moved?.status === 204 &&
                (provider === 'google_drive' ||
                  ((provider === 'drive' || provider === 'imanage') && way === 'out') ||
                  (provider === 'imanage' && way === 'in'))
              )
                blind = true;
            } else if (op === 'delete_folder' && folders.length) {
              const folder = random.pick(folders);
              const gone = await hook('/__sandbox/delete-folder', { ...ids, folder_id: folder });
              if (gone.status === 204) deletedFolders.push(folder);
              if (gone.status === 204 && provider === 'imanage') blind = true;
            } else if (op === 'restore_folder' && deletedFolders.length) {
              await hook('/__sandbox/restore-folder', { ...ids, folder_id: deletedFolders.pop()! });
            } else if (op === 'restore' && deleted.length) {
              const restored = await hook('/__sandbox/restore', { ...ids, file_id: deleted.pop()! });
              if (restored.status === 200 && ['practice', 'drive', 'imanage'].includes(provider))
                blind = true;
            } else if (op === 'reset' && provider !== 'clio' && provider !== 'imanage')
              await hook('/__sandbox/reset-feed', ids);
            else if (op === 'throttle')
              await hook('/__sandbox/next-api-error', { provider, status: 429, retry_after: 1 });
            else if (op === 'run') await check('changes');
            else if (op === 'run_full') await check('full');
          }
          history.push('run_full');
          await check('full');
        } catch (error) {
          // The steps as they ran (fast-check reports the seed and the shrunk sequence after this).
          console.error(`mirror model failed: ${where}; steps ${history.join(', ')}`);
          throw error;
        }
      }),
      { seed: SEED, numRuns: SEQUENCES, endOnFailure: process.env.CI === 'true' },
    );
  }, 600_000);
});
