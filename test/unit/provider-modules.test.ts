// The provider modules (functions/connectors/providers/): one list, and everything that goes over the
// providers agrees with it. A provider added to the list without its folder's parts, its fake, or its
// section in docs/providers.md fails here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_FAKES, isContentShape } from '../../sandbox';
import {
  PROVIDER_IDS,
  PROVIDER_MODULES,
  REAL_PROVIDER_IDS,
  SANDBOX_PROVIDER_IDS,
} from '../../functions/connectors/providers';
import { PROVIDERS } from '../../functions/connectors/domain/providers';

const ROOT = process.cwd();

describe('the provider modules', () => {
  it('name each provider once, in the API enum order, and split into sandbox and real providers', () => {
    expect(new Set(PROVIDER_IDS).size).toBe(PROVIDER_IDS.length);
    expect([...PROVIDER_IDS]).toEqual([
      'practice',
      'drive',
      'clio',
      'google_drive',
      'onedrive',
      'dropbox',
      'box',
      'imanage',
    ]);
    expect([...SANDBOX_PROVIDER_IDS, ...REAL_PROVIDER_IDS].sort()).toEqual([...PROVIDER_IDS].sort());
    for (const id of PROVIDER_IDS) expect(PROVIDERS[id].id).toBe(id);
  });

  it.each(PROVIDER_MODULES.map((module) => [module.definition.id, module]))(
    '%s is a folder of its own with a client that loads',
    async (id, module) => {
      for (const file of ['index.ts', 'definition.ts', 'client.ts'])
        expect(existsSync(join(ROOT, 'functions/connectors/providers', id, file))).toBe(true);
      const client = await module.client();
      expect(typeof client.Content).toBe('function');
      expect(typeof client.Containers).toBe('function');
      expect(
        new client.Content({
          apiUrl: 'https://api.example.com',
          setting: () => 'https://content.example.com',
        }),
      ).toBeInstanceOf(client.Containers);
    },
  );

  it('have a fake each in the sandbox, and each real provider a section in docs/providers.md', () => {
    const fakes = PROVIDER_FAKES.map((fake) => fake.id);
    for (const id of SANDBOX_PROVIDER_IDS) expect(isContentShape(id)).toBe(true);
    expect([...REAL_PROVIDER_IDS].sort()).toEqual([...fakes].sort());
    const docs = readFileSync(join(ROOT, 'docs/providers.md'), 'utf8');
    for (const id of REAL_PROVIDER_IDS) expect(docs).toMatch(new RegExp(`^## .*\\(\`${id}\``, 'm'));
  });
});
