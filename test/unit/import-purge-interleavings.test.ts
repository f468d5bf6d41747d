// An import step's per-file operations interleaved with a purge's passes, on the local adapters: the
// step takes its lease, reads the fence, its page's entries, then per file takes the hold (a new file),
// writes the document and then the entry (importDocument, as importFile calls it), and gives its lease
// back; the purge claims the connection, passes page by page over the ledger and the holds, and
// finishes (or passes again). The step's message may be handed out twice at once: a second copy of the
// step runs beside the first, and whichever ends first finishes the run while the other may still
// store. Every operation on the connectors table and the vault waits at a gate; the generated schedule
// says which waiting operation goes next, and where a step's worker dies (it never continues; its lease
// expires with its timeout, and the sweep marks its run failed). Asserted, for every schedule:
//   - when the purge succeeds, no document of the connection is in the vault, and none is written after;
//   - whatever the schedule, every document in the vault has a record a purge finds: its ledger entry
//     or its file hold; and an entry records a version only once the vault holds its content.
// Generated with a fixed seed (IMPORT_PURGE_SEED), printed on failure with the shrunk schedule.
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import * as fc from 'fast-check';
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import {
  ImportFencedError,
  holderOf,
  importDocument,
  purgeBegan,
  whileWriting,
} from '../../functions/connectors/app/ledger';
import { finishPurge, purgePage } from '../../functions/connectors/app/purge';
import type { JobRecord } from '../../functions/connectors/app/purge';
import { FileHolds } from '../../functions/connectors/infra/repositories/file-holds';
import { Links } from '../../functions/connectors/infra/repositories/import-links';
import type { ImportLinkRecord } from '../../functions/connectors/infra/repositories/import-links';
import { JobRepository } from '../../functions/connectors/infra/repositories/jobs';
import { Ledger } from '../../functions/connectors/infra/repositories/ledger';
import { ManualClock } from '../../functions/platform/clock';
import { newId } from '../../functions/platform/ids';
import type { Deps, Key, Table, VaultDocuments } from '../../functions/platform/ports';

const SEED = Number(process.env.IMPORT_PURGE_SEED ?? 20261127);
const RUNS = Number(process.env.IMPORT_PURGE_RUNS ?? 1500);
const ORG = 'org_interleavingsaaaaaa';
const CONNECTION = 'conn_interleavings';
const VAULT = 'vlt_main';
const RUN = newId('job');
const PURGE = newId('job');
const LINK = newId('lnk');
/** Operations a schedule may take before it is called stuck (a purge passing again while it waits). */
const MAX_STEPS = 3_000;

/**
 * Operations of concurrent flows, each held at a gate until the schedule lets it go. Exactly one flow
 * runs at a time: the driver lets one operation go, waits for it to finish and for its flow to reach
 * its next gate (or its end), then picks again.
 */
class Gates {
  private waiting: { flow: string; label: string; go: () => void }[] = [];
  private running = 0;
  private readonly dead = new Set<string>();

  /** Runs `operation` of `flow` once the schedule lets it; a dead flow's operation never runs. */
  async gate<T>(flow: string, label: string, operation: () => Promise<T>): Promise<T> {
    await new Promise<void>((go) => this.waiting.push({ flow, label, go }));
    this.running++;
    try {
      return await operation();
    } finally {
      this.running--;
    }
  }

  /** The operations waiting now, in the order they arrived. */
  get pending(): readonly { flow: string; label: string }[] {
    return this.waiting;
  }

  /** Lets the `index`th waiting operation go, or kills its flow there (it never continues). */
  async next(index: number, kill: boolean): Promise<string> {
    const [chosen] = this.waiting.splice(index, 1);
    if (kill) this.dead.add(chosen!.flow);
    else chosen!.go();
    await this.settle();
    return chosen!.flow;
  }

  isDead(flow: string): boolean {
    return this.dead.has(flow);
  }

  /** Until no operation runs and every flow waits at a gate or has ended (setImmediate runs after every microtask). */
  async settle(): Promise<void> {
    do await new Promise((resolve) => setImmediate(resolve));
    while (this.running > 0);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The table with each operation held at a gate of the flow it belongs to; `leases` collects the keys of
 * the step leases the flow took (the driver lets a dead flow's lease expire).
 */
function gatedTable(table: Table, gates: Gates, flow: string, leases: Key[] = []): Table {
  return {
    name: table.name,
    get: (key) => gates.gate(flow, `get ${key.sk}`, () => table.get(key)),
    getMany: (keys) => gates.gate(flow, 'getMany', () => table.getMany(keys)),
    query: (query) => gates.gate(flow, `query ${query.beginsWith ?? ''}`, () => table.query(query)),
    put: (item, condition) =>
      gates.gate(flow, `put ${item.sk}`, async () => {
        await table.put(item, condition);
        if (item.sk.startsWith('WRITER#')) leases.push({ pk: item.pk, sk: item.sk });
      }),
    update: (key, update, condition) =>
      gates.gate(flow, `update ${key.sk}`, () => table.update(key, update, condition)),
    delete: (key, condition) => gates.gate(flow, `delete ${key.sk}`, () => table.delete(key, condition)),
  };
}

function gatedVault(vault: VaultDocuments, gates: Gates, flow: string): VaultDocuments {
  return {
    put: (write) => gates.gate(flow, `vault put ${write.objectId}`, () => vault.put(write)),
    get: (ref) => gates.gate(flow, `vault get ${ref.objectId}`, () => vault.get(ref)),
    read: (ref) => vault.read(ref),
    delete: (ref) => gates.gate(flow, `vault delete ${ref.objectId}`, () => vault.delete(ref)),
    list: (organizationId, vaultId, page) => vault.list(organizationId, vaultId, page),
  };
}

/** The deps one flow sees: the connectors table and the vault behind its gates. */
const flowDeps = (deps: LocalDeps, gates: Gates, flow: string, leases?: Key[]): Deps => ({
  ...deps,
  tables: { ...deps.tables, connectors: gatedTable(deps.tables.connectors, gates, flow, leases) },
  vault: gatedVault(deps.vault, gates, flow),
});

const content = (text: string) => Readable.from([text]);

interface Planted {
  /** The entry written before the document. */
  ledgerFirst?: boolean;
  /** A purge that does not pass over the file holds. */
  ignoreHolds?: boolean;
  /** A step that stores without its lease. */
  noLease?: boolean;
}

/**
 * One invocation of an import step of run RUN over `files`, as the sync worker runs syncPage and
 * importFile takes them (downloads aside), under the step's lease.
 */
async function importStep(
  deps: Deps,
  link: ImportLinkRecord,
  files: string[],
  planted: Planted,
): Promise<void> {
  const run = { connectionId: CONNECTION, jobId: RUN };
  await (planted.noLease
    ? storeStep(deps, link, files, planted)
    : whileWriting(deps, run, () => storeStep(deps, link, files, planted)));
  // The step's end: the run finishes (the one-step run of this model); a second copy finds it ended.
  await JobRepository.of(deps).failProcessing(RUN, 'done', deps.clock.now());
}

async function storeStep(
  deps: Deps,
  link: ImportLinkRecord,
  files: string[],
  planted: Planted,
): Promise<void> {
  try {
    if (await purgeBegan(deps, CONNECTION)) throw new ImportFencedError(CONNECTION);
    const entries = await Ledger.of(deps).entriesFor(link, files);
    for (const sourceId of files) {
      const entry = entries.get(sourceId);
      if (!entry && (await holderOf(deps, link, sourceId, RUN)) !== link.id) continue;
      const file = {
        sourceId,
        name: `${sourceId}.txt`,
        version: 'v2',
        contentType: 'text/plain',
        content: content(sourceId),
      };
      const run = { jobId: RUN, outcome: entry ? ('updated' as const) : ('imported' as const), step: 0 };
      if (planted.ledgerFirst) await plantedLedgerFirst(deps, link, file, run, entry);
      else await importDocument(deps, link, file, run, { entry });
    }
  } catch (error) {
    if (!(error instanceof ImportFencedError)) throw error;
  }
}

/** A planted bug: the entry written before the document (what the invariant must catch). */
async function plantedLedgerFirst(
  deps: Deps,
  link: ImportLinkRecord,
  file: { sourceId: string; name: string; version: string; contentType: string; content: Readable },
  run: { jobId: string; outcome: 'imported' | 'updated'; step: number },
  entry: Awaited<ReturnType<Ledger['get']>>,
): Promise<void> {
  const ledger = Ledger.of(deps);
  const { ref } = ledger.entryFor(link, file.sourceId);
  await ledger.recordImported(
    { connectionId: CONNECTION, organizationId: ORG, ...ref, sourceId: file.sourceId, name: file.name },
    { name: file.name, sourceVersion: file.version, vaultVersion: 0, jobId: run.jobId, outcome: run.outcome },
    entry,
    deps.clock.now(),
  );
  await deps.vault.put({
    ...ref,
    organizationId: ORG,
    name: file.name,
    contentType: file.contentType,
    content: file.content,
  });
}

/** The purge: claim the connection, then passes (page tasks, the finish) until it ends. */
async function purge(deps: Deps, ignoreHolds: boolean): Promise<'succeeded' | 'failed'> {
  const jobs = JobRepository.of(deps);
  const now = deps.clock.now();
  await jobs.claimPurge(CONNECTION, PURGE, undefined);
  const job: JobRecord = {
    id: PURGE,
    organizationId: ORG,
    kind: 'purge',
    connectionId: CONNECTION,
    status: 'processing',
    deleted: 0,
    pages: 0,
    createdAt: now,
    updatedAt: now,
  };
  await jobs.create(job);
  const input = { jobId: PURGE, organizationId: ORG, connectionId: CONNECTION, pageSize: 2 };
  for (let pages = 0; ;) {
    for (let cursor: string | null = null, done = false; !done; pages++) {
      const page = await purgePage(deps, { ...input, cursor });
      ({ cursor, done } = page);
      if (ignoreHolds && cursor?.startsWith('holds:')) done = true;
    }
    const view = await finishPurge(deps, { ...input, outcome: 'succeeded', pages }, undefined, {
      sleep: async () => {}, // the schedule decides what happens meanwhile
    });
    if (view.status !== 'processing') return view.status as 'succeeded' | 'failed';
  }
}

const scheduleArbitrary = fc.record({
  /**
   * Each file: new, imported before the step (it has an entry and a hold), or imported before holds
   * were kept (an entry only).
   */
  files: fc.array(fc.constantFrom('new', 'imported', 'imported without hold'), {
    minLength: 1,
    maxLength: 4,
  }),
  purges: fc.boolean(),
  /** The step's message handed out twice at once: a second copy of the step runs beside the first. */
  duplicate: fc.boolean(),
  /**
   * Who goes next: the flow of the `pick`th waiting operation, for up to `times` operations in a row
   * (past the end: the oldest waiting operation, one at a time).
   */
  picks: fc.array(fc.record({ pick: fc.nat(), times: fc.integer({ min: 1, max: 80 }) }), { maxLength: 30 }),
  /** A step's worker dies instead of running the `crashAt`th operation of the steps, if it does. */
  crashAt: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
});

type Schedule = typeof scheduleArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Runs one schedule; returns what broke the invariant, or undefined. */
async function violation(schedule: Schedule, planted: Planted = {}): Promise<string | undefined> {
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const deps = createLocalDeps({ clock });
  const link: ImportLinkRecord = {
    id: LINK,
    organizationId: ORG,
    connectionId: CONNECTION,
    provider: 'practice',
    vaultId: VAULT,
    sourceId: 'matter-1',
    createdAt: clock.now(),
    updatedAt: clock.now(),
  };
  await Links.of(deps).put(link);
  const files = schedule.files.map((_, i) => `file-${i}`);
  // Files imported before, by a run long finished.
  for (const [i, kind] of schedule.files.entries()) {
    if (kind === 'new') continue;
    await importDocument(
      deps,
      link,
      {
        sourceId: files[i]!,
        name: 'old',
        version: 'v1',
        contentType: 'text/plain',
        content: content('old'),
      },
      { jobId: 'job_before', outcome: 'imported' },
    );
    if (kind === 'imported without hold')
      await deps.tables.connectors.delete({ pk: `CONN#${CONNECTION}`, sk: `HOLD#${VAULT}#${files[i]}` });
  }
  await JobRepository.of(deps).create({
    id: RUN,
    organizationId: ORG,
    kind: 'sync',
    connectionId: CONNECTION,
    status: 'processing',
    createdAt: clock.now(),
    updatedAt: clock.now(),
  });
  await Links.of(deps).claimRun(link.id, RUN, clock.now());

  const gates = new Gates();
  const documents = async () => (await deps.vault.list(ORG, VAULT, { limit: 100 })).items;
  let succeededWith: number | undefined;
  const steps = schedule.duplicate ? ['import', 'copy'] : ['import'];
  const leases = new Map(steps.map((flow) => [flow, [] as Key[]]));
  const flows: Promise<unknown>[] = steps.map((flow) =>
    importStep(flowDeps(deps, gates, flow, leases.get(flow)), link, files, planted),
  );
  if (schedule.purges)
    flows.push(
      purge(flowDeps(deps, gates, 'purge'), planted.ignoreHolds ?? false).then(async (status) => {
        if (status === 'succeeded') succeededWith = (await documents()).length;
      }),
    );
  const errors: unknown[] = [];
  for (const flow of flows) flow.catch((error: unknown) => errors.push(error));
  await gates.settle();
  let swept = false;
  const turns = schedule.picks.flatMap(({ pick, times }) =>
    Array.from({ length: times }, (_, i) => ({ pick, first: i === 0 })),
  );
  let flow: string | undefined;
  let importOps = 0;
  for (let turn = 0; gates.pending.length > 0; turn++) {
    if (turn > MAX_STEPS)
      return `stuck after ${MAX_STEPS} operations, waiting: ${gates.pending.map((p) => `${p.flow}: ${p.label}`).join(', ')}`;
    const next = turns[turn];
    if (!next || next.first) flow = gates.pending[(next?.pick ?? 0) % gates.pending.length]!.flow;
    // The chosen flow's oldest waiting operation; the oldest of any when that flow waits for none.
    const index = Math.max(
      0,
      gates.pending.findIndex((p) => p.flow === flow),
    );
    const importing = steps.includes(gates.pending[index]!.flow);
    const kill = importing && importOps++ === schedule.crashAt;
    const chosen = await gates.next(index, kill);
    if (kill && !swept) {
      // The dead worker's lease expires with its timeout; the sweep finds the run and marks it failed
      // (its re-drive would stop at the fence).
      swept = true;
      for (const key of leases.get(chosen)!) await deps.tables.connectors.delete(key);
      await JobRepository.of(deps).failProcessing(RUN, 'worker died', clock.now());
    }
  }
  if (errors.length) throw errors[0];
  if (succeededWith !== undefined && succeededWith > 0)
    return `the purge succeeded with ${succeededWith} documents left`;
  const left = await documents();
  if (succeededWith !== undefined && left.length > 0)
    return `${left.length} documents written after the purge succeeded`;
  const ledger = Ledger.of(deps);
  const holds = FileHolds.of(deps);
  // An entry says the vault holds what was imported: the step's version (v2) only once its content is.
  for (const entry of (await ledger.page(CONNECTION, { limit: 100 })).items) {
    const document = left.find((d) => d.objectId === entry.objectId);
    const stored = document && (await text((await deps.vault.read(document))!));
    if (entry.sourceVersion === 'v2' && stored !== entry.sourceId)
      return `the entry of ${entry.sourceId} records v2, the vault holds ${stored ?? 'nothing'}`;
  }
  for (const document of left) {
    const sourceId = document.source?.providerFileId ?? '';
    const entry = await ledger.get(CONNECTION, {
      linkId: link.id,
      vaultId: VAULT,
      objectId: document.objectId,
    });
    if (!entry && !(await holds.exists(CONNECTION, { vaultId: VAULT, sourceId })))
      return `document ${document.objectId} (${sourceId}) has no record a purge finds`;
  }
  return undefined;
}

describe('an import step and a purge, interleaved operation by operation', () => {
  it(`leaves nothing after a succeeded purge and no document without a record (seed ${SEED}, ${RUNS} schedules)`, async () => {
    await fc.assert(
      fc.asyncProperty(scheduleArbitrary, async (schedule) => {
        expect(await violation(schedule)).toBeUndefined();
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it.each<[string, Planted]>([
    ['the entry written before the document', { ledgerFirst: true }],
    ['a purge that ignores the file holds', { ignoreHolds: true }],
    ['a step that stores without its lease', { noLease: true }],
  ])(
    'finds a schedule that breaks the invariant when the code has a planted bug: %s',
    async (_name, planted) => {
      const found = await fc.check(
        fc.asyncProperty(
          scheduleArbitrary,
          async (schedule) => (await violation(schedule, planted)) === undefined,
        ),
        { seed: SEED, numRuns: RUNS },
      );
      expect(found.failed).toBe(true);
      // Broken by the invariant, not by an error.
      expect(await violation(found.counterexample![0], planted)).toEqual(expect.any(String));
    },
  );
});
