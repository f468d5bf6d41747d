// The data directory removed under a running local server (`rm -rf .data` to start over): the server
// stops with one message naming the directory, not an unhandled rejection from the next write.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

it('stops with a message naming the data directory when it is removed while the server runs', async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'data-removed-')), 'data');
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['bin/local-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, AWS_ENDPOINT_URL: '', PORT: '0', SANDBOX_PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const seen = (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)));
  });
  rmSync(dataDir, { recursive: true, force: true });
  // The deadline is cleared once the race is decided: a pending timer would keep the jest worker
  // alive for up to 15 s after its last file, past the time jest gives it to exit.
  let deadline: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise<'running'>((resolve) => (deadline = setTimeout(() => resolve('running'), 15_000))),
  ]);
  clearTimeout(deadline);
  if (code === 'running') child.kill('SIGKILL');
  expect(code).toBe(1);
  expect(output).toContain(`Stopping: the data directory ${dataDir} was removed while the server ran.`);
  expect(output).not.toMatch(/unhandled rejection|UnhandledPromiseRejection/);
}, 90_000);
