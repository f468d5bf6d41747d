// What a deploy needs from the machine and the account beyond the stack's own resources: it must
// synthesize from any working directory, and a fresh account or region must be able to create the
// API stage with its logging on (docs/deploy.md, "Account prerequisites").
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHUNKS_DIR,
  REPO_ROOT,
  SOURCE_MAPS_CONTEXT,
  ServiceFunction,
  sourceMapsDirOf,
} from '../../lib/service-function';
import { stageConfig } from '../../lib/stage-config';
import { synthStack } from '../support/synth';

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

  it('bundles a function from the repository when cdk runs from another directory', () => {
    // A directory with no package.json or node_modules anywhere above it: the bundle is still the
    // repository's (entries, modules and the SDK resolved from REPO_ROOT, not the working directory).
    process.chdir(elsewhere);
    const app = new App({
      outdir: join(elsewhere, 'cdk.out'),
      context: { stage: 'dev', 'aws:cdk:bundling-stacks': ['**'], 'aws:cdk:enable-asset-metadata': true },
    });
    const stack = new Stack(app, 'Elsewhere');
    const functions = ['docs/api/handlers/get-openapi', 'webhooks/api/handlers/list-event-types'].map(
      (handler, i) => new ServiceFunction(stack, `Fn${i}`, { handler, stage: stageConfig(app.node) }),
    );
    const assembly = app.synth();

    expect(REPO_ROOT).toBe(cwd);
    // A bundle per function, each the function's own (CDK caches bundles by their options).
    const template = assembly.getStackByName('Elsewhere').template as {
      Resources: Record<string, { Type: string; Metadata?: Record<string, string> }>;
    };
    const assetOf = (fn: ServiceFunction) =>
      template.Resources[stack.getLogicalId(fn.fn.node.defaultChild as CfnFunction)]!.Metadata![
        'aws:asset:path'
      ]!;
    const [openApi, eventTypes] = functions.map((fn) => join(assembly.directory, assetOf(fn)));
    expect(openApi).not.toBe(eventTypes);
    expect(readFileSync(join(openApi!, 'index.mjs'), 'utf8')).toMatch(/brotliDecompressSync/);
    expect(readFileSync(join(eventTypes!, 'index.mjs'), 'utf8')).not.toMatch(/brotliDecompressSync/);
    // The route uses no AWS resource: no SDK client's chunk, and the maps outside the package.
    expect(readdirSync(openApi!).filter((f) => !f.startsWith(CHUNKS_DIR))).toEqual(['index.mjs']);
    expect(readdirSync(openApi!, { recursive: true })).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/dynamodb-\w+\.mjs$|\.map$/)]),
    );
    const maps = sourceMapsDirOf(assembly.directory, 'docs/api/handlers/get-openapi');
    expect(readdirSync(maps)).toContain('index.mjs.map');
  });

  it('ships the maps beside the code, linked, when debugging is switched on', () => {
    process.chdir(elsewhere);
    const app = new App({
      outdir: join(elsewhere, 'cdk.out.debug'),
      context: {
        stage: 'dev',
        [SOURCE_MAPS_CONTEXT]: 'true',
        'aws:cdk:bundling-stacks': ['**'],
        'aws:cdk:enable-asset-metadata': true,
      },
    });
    const stack = new Stack(app, 'Debugging');
    const fn = new ServiceFunction(stack, 'Fn', {
      handler: 'docs/api/handlers/get-openapi',
      stage: stageConfig(app.node),
    });
    const assembly = app.synth();
    const template = assembly.getStackByName('Debugging').template as {
      Resources: Record<string, { Metadata?: Record<string, string> }>;
    };
    const asset = join(
      assembly.directory,
      template.Resources[stack.getLogicalId(fn.fn.node.defaultChild as CfnFunction)]!.Metadata![
        'aws:asset:path'
      ]!,
    );
    expect(readdirSync(asset)).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map']));
    expect(readFileSync(join(asset, 'index.mjs'), 'utf8').trimEnd()).toMatch(
      /\n\/\/# sourceMappingURL=index\.mjs\.map$/,
    );
  });
});

describe("the account's API Gateway logging role", () => {
  type Resources = Record<
    string,
    { Properties: Record<string, unknown>; DependsOn?: string[]; DeletionPolicy?: string }
  >;

  it('is set by the stack, retained, and created before the logging stage', () => {
    const { template } = synthStack({ stage: 'prod' });
    const accounts = template.findResources('AWS::ApiGateway::Account') as Resources;
    expect(Object.keys(accounts)).toHaveLength(1);
    const [accountId, account] = Object.entries(accounts)[0]!;
    expect(account.DeletionPolicy).toBe('Retain');
    const roleId = (account.Properties.CloudWatchRoleArn as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    const role = (template.findResources('AWS::IAM::Role') as Resources)[roleId]!;
    expect(role.DeletionPolicy).toBe('Retain');
    expect(role.Properties.AssumeRolePolicyDocument).toMatchObject({
      Statement: [{ Action: 'sts:AssumeRole', Principal: { Service: 'apigateway.amazonaws.com' } }],
    });
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain(
      ':iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
    );
    // The stage that turns on execution and access logging waits for the account setting.
    const stages = Object.values(template.findResources('AWS::ApiGateway::Stage') as Resources);
    expect(stages).toHaveLength(1);
    expect(stages[0]!.Properties).toMatchObject({
      MethodSettings: [expect.objectContaining({ LoggingLevel: 'ERROR' })],
      AccessLogSetting: expect.objectContaining({ DestinationArn: expect.anything() }),
    });
    expect(stages[0]!.DependsOn).toContain(accountId);
  });

  it('is left to the account with -c apiGatewayCloudWatchRole=false', () => {
    const { template } = synthStack({ context: { apiGatewayCloudWatchRole: 'false' } });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    const roles = Object.values(template.findResources('AWS::IAM::Role') as Resources);
    expect(roles.filter((r) => JSON.stringify(r).includes('apigateway.amazonaws.com'))).toEqual([]);
  });

  it('refuses a value of apiGatewayCloudWatchRole other than true or false', () => {
    expect(() => synthStack({ context: { apiGatewayCloudWatchRole: 'maybe' } })).toThrow(
      /apiGatewayCloudWatchRole" must be true or false/,
    );
  });
});
