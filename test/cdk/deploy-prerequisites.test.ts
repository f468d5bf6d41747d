// What a deploy needs from the machine and the account beyond the stack's own resources: it must
// synthesize from any working directory, and a fresh account or region must be able to create the
// API stage with its logging on (docs/deploy.md, "Account prerequisites").
import { App, Stack } from 'aws-cdk-lib';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPS_LOCK_FILE, ServiceFunction } from '../../lib/service-function';
import { stageConfig } from '../../lib/stage-config';

describe('synthesis outside the repository root', () => {
  const cwd = process.cwd();
  let elsewhere: string;

  beforeAll(() => {
    elsewhere = mkdtempSync(join(tmpdir(), 'cdk-elsewhere-'));
  });

  afterAll(() => {
    process.chdir(cwd);
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('bundles a function with the repository lock file when cdk runs from another directory', () => {
    // A directory with no package lock anywhere above it: NodejsFunction's own lookup fails there.
    process.chdir(elsewhere);
    const app = new App({
      outdir: join(elsewhere, 'cdk.out'),
      context: { stage: 'dev', 'aws:cdk:bundling-stacks': ['**'] },
    });
    const stack = new Stack(app, 'Elsewhere');
    new ServiceFunction(stack, 'OpenApi', {
      handler: 'docs/api/handlers/get-openapi',
      stage: stageConfig(app.node),
    });
    const assembly = app.synth();

    expect(DEPS_LOCK_FILE).toBe(join(cwd, 'package-lock.json'));
    const assets = readdirSync(assembly.directory).filter((name) => name.startsWith('asset.'));
    expect(assets).toHaveLength(1);
    expect(readdirSync(join(assembly.directory, assets[0]!))).toEqual(
      expect.arrayContaining(['index.mjs', 'index.mjs.map']),
    );
  });
});
