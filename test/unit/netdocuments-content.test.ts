// The NetDocuments client's own rules, property-based against its fake: whatever the sequence of writes,
// deletions, restores and moves (in, out, within), at whatever instants (many within one: the clock
// need not move between two changes), and passes of whatever page size run between them, every pass ends with the mirror (the
// files the passes reported, applied in order) equal to the container's documents, and a pass after no
// change reports nothing. That is the cursor's invariant: the last instant seen plus what was seen at it
// loses no change made at that instant later and repeats none. And the cursor and page tokens read back
// only what they wrote.
import * as fc from 'fast-check';
import {
  completeParams,
  fillTemplate,
  paramVars,
  settingsSuffix,
} from '../../functions/connectors/domain/connection-params';
import { definition } from '../../functions/connectors/providers/netdocuments/definition';
import { NetDocumentsApi, versionOf } from '../../functions/connectors/providers/netdocuments/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import { netdocumentsFake } from '../../sandbox/providers/netdocuments';
import { ndIds } from '../../sandbox/providers/netdocuments/documents';
import { changesPass } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const SEED = Number(process.env.ND_MODEL_SEED ?? 20261127);
const TOKEN = 'tok-nd-model';
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;

beforeAll(async () => {
  fake = await startFakeHarness(netdocumentsFake, clock);
});
afterAll(() => fake.close());

const step = fc.oneof(
  fc.record({ op: fc.constant('write' as const), name: fc.nat(5), outside: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('restore' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 1000) }),
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(), to: fc.nat(2) }),
  fc.record({ op: fc.constant('pass' as const), limit: fc.integer({ min: 1, max: 4 }) }),
);

describe('NetDocuments changes by modification time', () => {
  it(`every pass leaves the mirror equal to the container, whatever the instants (seed ${SEED})`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const account = `acct-nd-model-${run++}`;
        fake.grant(TOKEN, account, ['read']);
        const tree = fake.tree(account);
        const folder = tree.addFolder(tree.root, 'Matter');
        const sub = tree.addFolder(folder, 'Sub');
        const other = tree.addFolder(tree.root, 'Other');
        const api = new NetDocumentsApi({ apiUrl: `${fake.base}/netdocuments/us` });
        const id = ndIds.providerId(tree, folder);
        const mirror = new Map<string, { name: string; version: string }>();
        let cursor: string | undefined;
        let writes = 0;
        const pass = async (limit: number) => {
          const result = await changesPass(api, TOKEN, id, cursor, limit);
          cursor = result.cursor;
          for (const file of result.files)
            if (file.deleted) mirror.delete(file.id);
            else mirror.set(file.id, { name: file.name, version: file.version });
          return result.files;
        };
        const truth = async () => {
          const out = new Map<string, { name: string; version: string }>();
          for (const file of tree.liveFiles())
            if (file.parent === folder || file.parent === sub) {
              const attributes = (await (
                await fetch(`${fake.base}/netdocuments/us/v1/Document/${ndIds.providerId(tree, file)}/info`, {
                  headers: { Authorization: `Bearer ${TOKEN}` },
                })
              ).json()) as { standardAttributes: Parameters<typeof versionOf>[0] };
              out.set(ndIds.providerId(tree, file), {
                name: file.name,
                version: versionOf(attributes.standardAttributes),
              });
            }
          return out;
        };
        for (const s of steps) {
          if (s.op === 'write') {
            const target = s.outside ? other : s.name % 2 ? sub : folder;
            tree.putFile(target, `doc-${s.name}.txt`, {
              contentType: 'text/plain',
              content: textContent(`w${writes++}`),
            });
          } else if (s.op === 'delete') {
            const live = tree.liveFiles();
            if (live.length) tree.deleteFile(live[s.pick % live.length]!);
          } else if (s.op === 'restore') {
            const gone = [...tree.changesAfter(0, (f) => f.deleted, 1000).files];
            const file = gone[s.pick % Math.max(gone.length, 1)];
            if (file && !file.parent.byName.has(file.name)) tree.restoreFile(file.id, { asChange: true });
          } else if (s.op === 'move') {
            const live = tree.liveFiles();
            const file = live[s.pick % Math.max(live.length, 1)];
            const to = [folder, sub, other][s.to]!;
            if (file && file.parent !== to && !to.byName.has(file.name)) tree.moveFile(file, to);
          } else if (s.op === 'tick') clock.advance(s.ms);
          else {
            await pass(s.limit);
            expect(mirror).toEqual(await truth());
            // Nothing changed since: nothing new. A pass may still report, once, the deletion of a
            // document the link never held (a change outside the container, seen by the search of the
            // user's cabinets); the pass after it reports nothing at all.
            const quiet = await pass(s.limit);
            expect(quiet.filter((f) => !f.deleted)).toEqual([]);
            expect(await pass(s.limit)).toEqual([]);
          }
        }
        await pass(3);
        expect(mirror).toEqual(await truth());
      }),
      { seed: SEED, numRuns: 60 },
    );
  }, 120_000);
});

describe('NetDocuments regions', () => {
  it.each([
    ['us', 'vault.netvoyage.com', 'US'],
    ['eu', 'eu.netdocuments.com', 'EU'],
    ['de', 'de.netdocuments.com', 'DE'],
    ['au', 'au.netdocuments.com', 'AU'],
  ])(
    '%s: the consent page on %s, the token endpoint and the API on its api. host, its own client',
    (region, host, suffix) => {
      const params = completeParams(definition, { region });
      const vars = paramVars(definition, params);
      const filled = Object.fromEntries(
        Object.entries(definition.defaults).map(([name, url]) => [name, fillTemplate(url, vars)]),
      );
      expect(filled).toEqual({
        authorizeUrl: `https://${host}/neWeb2/OAuth.aspx`,
        tokenUrl: `https://api.${host}/v1/OAuth`,
        accountUrl: `https://api.${host}/v1/User/info`,
        apiUrl: `https://api.${host}`,
      });
      expect(settingsSuffix(definition, params)).toBe(suffix);
    },
  );

  it('defaults to the United States', () => {
    expect(completeParams(definition)).toEqual({ region: 'us' });
  });
});
