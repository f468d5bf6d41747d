// Imports and exports in the stack: the vault stand-in's content bucket (encrypted, private, TLS only,
// logged, stray multipart parts cleaned), the sync worker's and the sync sweep's grants (content only
// where it is touched, the connector secrets it refreshes with), the sweep's rule, and the routes.
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import type { ServiceFunction } from '../../lib/service-function';
import type { ServiceStack } from '../../lib/service-stack';
import {
  actionsOf,
  actionsOfRole,
  logicalIdOf,
  roleIdOf,
  statementsOfRole,
  synthStack,
} from '../support/synth';

let stack: ServiceStack;
let template: Template;

/** Both providers configured, content API included: the routes and workers that call them get secrets. */
const provider = (host: string) => ({
  authorizeUrl: `https://${host}/oauth/authorize`,
  tokenUrl: `https://${host}/oauth/token`,
  revokeUrl: `https://${host}/oauth/revoke`,
  accountUrl: `https://${host}/api/v1/me`,
  apiUrl: `https://${host}/api/v1`,
  clientId: `${host}-client`,
});

beforeAll(() => {
  ({ stack, template } = synthStack({
    context: {
      connectors: JSON.stringify({
        providers: { practice: provider('practice.example'), drive: provider('drive.example') },
      }),
    },
  }));
});

const environmentOf = (fn: ServiceFunction) =>
  (
    (template.findResources('AWS::Lambda::Function') as Resources)[id(fn.fn)]!.Properties.Environment as {
      Variables: Record<string, unknown>;
    }
  ).Variables;

type Resources = Record<string, { Properties: Record<string, unknown> }>;
const id = (construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(construct.node.defaultChild as never);

describe('the vault content bucket', () => {
  it('is encrypted, versioned, blocks every public access, refuses plain HTTP and logs access', () => {
    const bucket = (template.findResources('AWS::S3::Bucket') as Resources)[id(stack.data.vaultBucket)]!;
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { LogFilePrefix: 'vault/' },
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: [
          { AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
          {
            NoncurrentVersionExpiration: { NoncurrentDays: 35 },
            ExpiredObjectDeleteMarker: true,
            Status: 'Enabled',
          },
        ],
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id(stack.data.vaultBucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('the import workers', () => {
  const s3Actions = (roleId: string) =>
    statementsOfRole(template, roleId)
      .filter((s) => [s.Action].flat().some((a) => String(a).startsWith('s3:')))
      .map((s) => ({ actions: [s.Action].flat().sort(), resource: JSON.stringify(s.Resource) }));

  it('lets the sync worker read, write and delete vault content, and nothing else of S3', () => {
    const role = roleIdOf(stack, stack.queueWorkers.functions.syncs);
    const grants = s3Actions(role);
    expect(grants).toHaveLength(2);
    expect(grants[0]!.actions).toEqual([
      's3:AbortMultipartUpload',
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    expect(grants[0]!.resource).toContain(id(stack.data.vaultBucket));
    expect(grants[0]!.resource).toContain('/*');
    // ListBucket on the bucket itself: S3 then answers a missing key 404 NoSuchKey, not 403.
    expect(grants[1]).toEqual({
      actions: ['s3:ListBucket'],
      resource: JSON.stringify({ 'Fn::GetAtt': [id(stack.data.vaultBucket), 'Arn'] }),
    });
    const actions = actionsOfRole(template, role);
    expect(actions).toEqual(
      expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey', 'secretsmanager:GetSecretValue']),
    );
    expect(actions).not.toContain('states:StartExecution');
    // The content API and what a refresh on use needs, for both providers; the client secrets by ARN.
    expect(environmentOf(stack.queueWorkers.functions.syncs)).toMatchObject({
      PROVIDER_PRACTICE_API_URL: 'https://practice.example/api/v1',
      PROVIDER_DRIVE_TOKEN_URL: 'https://drive.example/oauth/token',
      PROVIDER_PRACTICE_CLIENT_SECRET_ARN: expect.anything(),
      VAULT_BUCKET: expect.anything(),
    });
  });

  it('lets the purge page task delete vault content only', () => {
    const purge = stack.node.findChild('Purge') as unknown as {
      taskFunctions: Record<string, ServiceFunction>;
    };
    const grants = s3Actions(roleIdOf(stack, purge.taskFunctions.purgePage!));
    expect(grants.map((g) => g.actions)).toEqual([['s3:DeleteObject']]);
    expect(s3Actions(roleIdOf(stack, purge.taskFunctions.finishPurge!))).toEqual([]);
  });

  it('runs the sync sweep every minute, sending to the syncs and events queues without touching the vault or keys', () => {
    const sweep = stack.scheduledWorkers.functions.get('syncSweep')!;
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id(sweep.fn), 'Arn'] } })],
    });
    const actions = actionsOfRole(template, roleIdOf(stack, sweep));
    expect(actions).toContain('sqs:SendMessage');
    // A skipped scheduled run announces itself (connector.sync.skipped) through the events queue.
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          QUEUE_EVENTS_URL: Match.anyValue(),
          QUEUE_SYNCS_URL: Match.anyValue(),
        }),
      },
      Description: Match.stringLikeRegexp('scheduled import runs'),
    });
    expect(actions.filter((a) => a.startsWith('s3:') || a.startsWith('kms:'))).toEqual([]);
  });

  it('gives the routes that call a provider the key and the provider secrets, and the listing routes neither', () => {
    for (const route of ['listSources', 'createImportLink', 'createExport']) {
      expect(actionsOf(template, stack, route)).toEqual(
        expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey', 'secretsmanager:GetSecretValue']),
      );
    }
    for (const route of [
      'listImportLinks',
      'getImportLink',
      'listSyncRuns',
      'listLinkDocuments',
      'startSyncRun',
    ]) {
      const actions = actionsOf(template, stack, route);
      expect({
        route,
        kms: actions.filter((a) => a.startsWith('kms:') || a.startsWith('secretsmanager:')),
      }).toEqual({
        route,
        kms: [],
      });
    }
    expect(actionsOf(template, stack, 'startSyncRun')).toContain('sqs:SendMessage');
  });
});
