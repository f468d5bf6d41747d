// The emulated runtime's application cache (.build/emulated-app): the newest applications are kept, and
// what a build killed part-way left behind is removed, never a build under way in a live process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneAppCache } from '../../lib/emulated-app';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('pruneAppCache', () => {
  it('keeps the four newest applications, drops dead builds, keeps a live one', () => {
    const root = mkdtempSync(join(tmpdir(), 'app-cache-'));
    const now = Date.now() / 1000;
    for (let i = 0; i < 6; i++) {
      const dir = join(root, `app${i}`);
      mkdirSync(join(dir, 'bundles'), { recursive: true });
      writeFileSync(join(dir, 'app.json'), '{}');
      utimesSync(dir, now - i * 60, now - i * 60);
    }
    const dead = `abcdef0123456789.${deadPid()}.tmp`;
    const live = `0123456789abcdef.${process.pid}.tmp`;
    mkdirSync(join(root, dead, 'bundles'), { recursive: true });
    mkdirSync(join(root, live, 'bundles'), { recursive: true });

    pruneAppCache(root);

    expect(readdirSync(root).sort()).toEqual(['app0', 'app1', 'app2', 'app3', live].sort());
  });
});

describe('pruneAppCache and the shared bundles', () => {
  it('never counts the bundles directory among the applications, and prunes the bundles in their own', () => {
    const root = mkdtempSync(join(tmpdir(), 'app-cache-'));
    const now = Date.now() / 1000;
    for (let i = 0; i < 4; i++) {
      mkdirSync(join(root, `app${i}`), { recursive: true });
      utimesSync(join(root, `app${i}`), now - i * 60, now - i * 60);
      mkdirSync(join(root, 'bundles', `sources${i + 1}`), { recursive: true });
      utimesSync(join(root, 'bundles', `sources${i + 1}`), now - i * 60, now - i * 60);
    }
    mkdirSync(join(root, 'bundles', 'sources5'), { recursive: true });
    utimesSync(join(root, 'bundles', 'sources5'), now - 3600, now - 3600);
    // The bundles directory is the oldest entry: were it an application, it would go.
    utimesSync(join(root, 'bundles'), now - 7200, now - 7200);

    pruneAppCache(root);
    expect(readdirSync(root).sort()).toEqual(['app0', 'app1', 'app2', 'app3', 'bundles']);
    pruneAppCache(join(root, 'bundles'));
    expect(readdirSync(join(root, 'bundles')).sort()).toEqual([
      'sources1',
      'sources2',
      'sources3',
      'sources4',
    ]);
  });
});
