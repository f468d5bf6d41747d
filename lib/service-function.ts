// Every Lambda of the service is made here: runtime, architecture, tracing, logs, bundling and the
// grant-plus-environment helpers, so no function is configured by hand.
import type { ILocalBundling } from 'aws-cdk-lib';
import { AssetHashType, Aws, DockerImage, Duration, Stack, Token } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { AddToPrincipalPolicyResult, RoleProps } from 'aws-cdk-lib/aws-iam';
import {
  AccountRootPrincipal,
  Policy,
  PolicyDocument,
  PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions, Metafile } from 'esbuild';
import { buildSync } from 'esbuild';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { secretArnEnv } from '../functions/platform/config';
import {
  DLQ_URL_ENV,
  QUEUE_URL_ENV,
  TABLE_DEFINITIONS,
  VAULT_BUCKET_ENV,
} from '../functions/platform/tables';
import type { QueueName, TableName } from '../functions/platform/ports';
import type { ResourceUses } from '../functions/platform/workers';
import { QUEUE_WORKERS, SCHEDULED_WORKERS, WORKFLOW_TASKS } from '../functions/platform/workers';
import { API_KEY_AUTHORIZER, CONSOLE_AUTHORIZER, ROUTES } from '../functions/routes';
import type { StageConfig } from './stage-config';

/**
 * What the Table port's adapter calls: GetItem, BatchGetItem (getMany) and Query to read; PutItem,
 * UpdateItem, DeleteItem to write.
 */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
  ],
} as const;

export const FUNCTIONS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'functions');
/** The repository: what a function's asset is made from (bundled, so only the bundle is uploaded). */
export const REPO_ROOT = join(FUNCTIONS_DIR, '..');
const ENTRIES_DIR = join(REPO_ROOT, '.build', 'lambda-entries');

/** A port of the deployed composition, by the factory functions/adapters/aws exports for it. */
const ADAPTER_FACTORIES = {
  tables: 'awsTables',
  queues: 'awsQueues',
  keys: 'awsKeys',
  workflows: 'awsWorkflows',
  vault: 'awsVault',
  secrets: 'awsSecrets',
} as const;
export type LambdaPort = keyof typeof ADAPTER_FACTORIES;

/**
 * The ports a handler module's function uses, from what its route or worker declares (`uses`, the
 * same declaration its grants come from; a module serving several functions gets them all). The
 * connectors' functions read the provider settings' secrets (lib/connectors.ts binds them by route),
 * so their packages hold the secrets adapter. A module declared nowhere gets every port. A grant
 * made to a function whose package lacks the port's adapter fails the synth (ServiceFunction.bind*).
 */
export function portsOf(handlerModule: string): LambdaPort[] {
  const declared = [
    ...ROUTES,
    API_KEY_AUTHORIZER,
    CONSOLE_AUTHORIZER,
    ...Object.values(QUEUE_WORKERS),
    ...SCHEDULED_WORKERS,
    ...WORKFLOW_TASKS,
  ].filter((d) => d.handler === handlerModule);
  if (declared.length === 0) return Object.keys(ADAPTER_FACTORIES) as LambdaPort[];
  const ports = new Set<LambdaPort>();
  for (const { uses, auth } of declared as { uses: ResourceUses; auth?: string }[]) {
    // An API-key route's middy stack keeps its rate-limit bucket in a table (lib/api.ts binds it).
    if (Object.keys(uses.tables ?? {}).length || uses.vault || auth === 'apiKey') ports.add('tables');
    if (uses.queues?.length || uses.deadLetters?.length) ports.add('queues');
    if (uses.kms) ports.add('keys');
    if (Object.keys(uses.workflows ?? {}).length) ports.add('workflows');
    if (uses.vault) ports.add('vault');
  }
  if (handlerModule.startsWith('connectors/')) ports.add('secrets');
  return (Object.keys(ADAPTER_FACTORIES) as LambdaPort[]).filter((p) => ports.has(p));
}

/**
 * The Lambda's entry: the handler module's factory called with the deployed runtime's ports
 * (functions/compose/aws.ts), built from the adapters of the ports it uses only (portsOf): an adapter
 * not imported takes its SDK client's chunk out of the package. Handler modules never choose adapters;
 * this generated file, bundled by esbuild, is where a Lambda's composition happens. Written only when
 * it changes.
 */
export function lambdaEntry(handlerModule: string): string {
  const file = join(ENTRIES_DIR, `${handlerModule.split('/').join('--')}.ts`);
  const from = (target: string) => {
    const path = relative(dirname(file), join(FUNCTIONS_DIR, target)).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  };
  const ports = portsOf(handlerModule);
  const factories = ports.map((p) => ADAPTER_FACTORIES[p]);
  const source = [
    `// Generated by lib/service-function.ts: the Lambda entry of functions/${handlerModule}.ts.`,
    `import { awsLambdaDeps } from '${from('compose/aws')}';`,
    ...(factories.length ? [`import { ${factories.join(', ')} } from '${from('adapters/aws')}';`] : []),
    `import { create } from '${from(handlerModule)}';`,
    '',
    `export const handler = create(awsLambdaDeps({ ${ports.map((p) => `${p}: ${ADAPTER_FACTORIES[p]}`).join(', ')} }));`,
    '',
  ].join('\n');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== source) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
  }
  return file;
}

/**
 * What a cold start loads and compiles at init, at most this size per Lambda: index.mjs and the chunks
 * it imports statically (minified, source maps aside). The AWS SDK clients are chunks of their own,
 * imported on a port's first call, outside this budget (LAMBDA_BUNDLING). test/cdk/bundle-budget.test.ts
 * builds each bundle and fails over it; bench/bundles.ts reports sizes and init times (docs/decisions.md,
 * "Cold starts" and "The AWS SDK bundled, one chunk per client").
 */
export const BUNDLE_BUDGET_BYTES = 150 * 1024;

/** Where a bundle's chunks go, beside index.mjs: the SDK clients' (./sdk/*) and the code they share. */
export const CHUNKS_DIR = 'chunks';

/**
 * How esbuild bundles every function: ESM, minified, a source map without sources for each file, and
 * code splitting. The map is linked as debugging needs it; unless debugging is switched on the maps are
 * built unlinked and kept out of the package (SourceMaps, lambdaBuildOptions): they were
 * 62% of the packages' bytes, and a function reads them only to log a mapped stack. The AWS
 * SDK is bundled, not left to the runtime's copy: each client's module under
 * functions/adapters/aws/sdk/ is imported on first use, so it becomes a chunk holding only the names the
 * adapters use, which loads in about a third of the time the runtime's whole package takes (measured in
 * bench/results/bundles.md), at the SDK version the tests ran against.
 */
export const LAMBDA_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: 'linked',
  sourcesContent: false,
  mainFields: ['module', 'main'],
  splitting: true,
  entryNames: 'index',
  chunkNames: `${CHUNKS_DIR}/[name]-[hash]`,
  outExtension: { '.js': '.mjs' },
  banner: {
    js: "import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'silent',
} as const satisfies BuildOptions;

/**
 * Where a function's source maps go. `beside`: next to each file and linked (`//# sourceMappingURL=`),
 * so functions/platform/stack-trace.ts maps a logged stack to source lines: debugging switched on, and
 * the emulated AWS runtime. `apart`: written, unlinked, to a directory of their own outside the
 * package (SOURCE_MAPS_DIR of the cloud assembly), to map a deployed stack by hand.
 */
export type SourceMaps = 'beside' | 'apart';

/** The CDK context key that ships the maps beside the code (`cdk deploy -c sourceMaps=true`). */
export const SOURCE_MAPS_CONTEXT = 'sourceMaps';

/** Under the cloud assembly (cdk.out): one directory of maps per handler module, the last synth's. */
export const SOURCE_MAPS_DIR = 'source-maps';

/**
 * esbuild's options for a function's bundle into `outdir` (index.mjs, its chunks, their maps): what
 * `cdk synth` builds into the function's asset, what the bundle-budget test measures and what the
 * emulated AWS runtime runs (lib/emulated-functions.ts, maps `beside`). With maps `apart` esbuild
 * still writes them into `outdir`, unlinked; EsbuildBundling moves them out.
 */
export function lambdaBuildOptions(
  handlerModule: string,
  outdir: string,
  maps: SourceMaps = 'apart',
): BuildOptions {
  return {
    ...LAMBDA_BUNDLING,
    sourcemap: maps === 'beside' ? 'linked' : 'external',
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    outExtension: { ...LAMBDA_BUNDLING.outExtension },
    banner: { ...LAMBDA_BUNDLING.banner },
    entryPoints: [lambdaEntry(handlerModule)],
    outdir,
  };
}

/** The directory a handler module's maps are moved to, beside the asset directories of the cloud assembly. */
export function sourceMapsDirOf(assemblyDir: string, handlerModule: string): string {
  return join(assemblyDir, SOURCE_MAPS_DIR, handlerModule.split('/').join('--'));
}

/** Moves every `.map` under `dir` to the same relative path under `to` (replacing what was there). */
function moveMaps(dir: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.map')) continue;
    mkdirSync(dirname(join(to, name)), { recursive: true });
    renameSync(join(dir, name), join(to, name));
  }
}

/**
 * The output files index.mjs can load, itself included, as paths relative to `outdir`: what it imports
 * statically or dynamically, and so on. esbuild makes a chunk of every `import()` target it parses,
 * even one whose call tree shaking removed (an adapter this function's entry does not import), so a
 * chunk is deployed only if the code that is deployed imports it.
 */
export function reachableOutputs(meta: Metafile, outdir: string): Set<string> {
  const rel = (path: string) => relative(outdir, resolve(path));
  const outputs = new Map(Object.entries(meta.outputs).map(([path, out]) => [rel(path), out]));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of outputs.get(file)?.imports ?? []) if (!i.external) visit(rel(i.path));
  };
  visit('index.mjs');
  return seen;
}

/**
 * A function's package into `outputDir`, as synth builds it: the bundle, without the chunks its code
 * cannot load, the maps beside it or moved to `mapsDir`.
 */
export function bundleInto(
  handlerModule: string,
  outputDir: string,
  maps: SourceMaps,
  mapsDir: string,
): void {
  const { metafile } = buildSync({ ...lambdaBuildOptions(handlerModule, outputDir, maps), metafile: true });
  const reachable = reachableOutputs(metafile!, outputDir);
  for (const path of Object.keys(metafile!.outputs)) {
    const name = relative(outputDir, resolve(path));
    if (!reachable.has(name.replace(/\.map$/, ''))) rmSync(join(outputDir, name));
  }
  if (maps === 'apart') moveMaps(outputDir, mapsDir);
}

/**
 * Bundles a handler module with esbuild on this machine, at synth (no Docker). Its fields are part of
 * CDK's asset cache key (the key is the bundling options as JSON, where a method is not), so two
 * functions never share a bundle: a `local` without them got every function the first one's bundle.
 * CDK bundles into a directory of the cloud assembly, so maps kept apart land beside the assets.
 */
class EsbuildBundling implements ILocalBundling {
  constructor(
    readonly handlerModule: string,
    readonly maps: SourceMaps,
  ) {}

  tryBundle(outputDir: string): boolean {
    const mapsDir = sourceMapsDirOf(dirname(outputDir), this.handlerModule);
    bundleInto(this.handlerModule, outputDir, this.maps, mapsDir);
    return true;
  }
}

/**
 * A function's code: its handler module bundled (EsbuildBundling) into the asset directory CDK uploads.
 * The asset's hash is the bundle's, so an unchanged bundle is not uploaded again. The image is never
 * pulled: local bundling always succeeds or throws.
 */
function bundledCode(handlerModule: string, maps: SourceMaps): Code {
  return Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: new EsbuildBundling(handlerModule, maps),
    },
  });
}

/** `beside` when the app's context switches debugging on (SOURCE_MAPS_CONTEXT true), else `apart`. */
function sourceMapsOf(scope: Construct): SourceMaps {
  const value: unknown = scope.node.tryGetContext(SOURCE_MAPS_CONTEXT);
  if (value === undefined || value === false || value === 'false') return 'apart';
  if (value === true || value === 'true') return 'beside';
  throw new Error(`context ${SOURCE_MAPS_CONTEXT} must be true or false, not ${JSON.stringify(value)}`);
}

/** The inline policies of a function's role: its log group, and every grant made to it. */
export const LOGS_POLICY = 'logs';
export const GRANTS_POLICY = 'grants';

/**
 * A Lambda execution role that keeps its grants in an inline policy of the role itself instead of
 * CDK's separate AWS::IAM::Policy resource (`DefaultPolicy`): the same permissions and the same
 * inline-policy size limit, one CloudFormation resource less per function
 * (test/cdk/resource-budget.test.ts). Whatever depends on a grant depends on the role.
 */
class FunctionRole extends Role {
  constructor(
    scope: Construct,
    id: string,
    private readonly inlineGrants: PolicyDocument,
    props: RoleProps,
  ) {
    super(scope, id, {
      ...props,
      inlinePolicies: { ...props.inlinePolicies, [GRANTS_POLICY]: inlineGrants },
    });
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

export interface ServiceFunctionProps {
  /** Module under functions/ (no extension) exporting `create(deps)`, its handler's factory. */
  handler: string;
  stage: StageConfig;
  description?: string;
  timeout?: Duration;
  memorySize?: number;
  environment?: Record<string, string>;
  reservedConcurrency?: number;
  /**
   * A log group shared with other functions (the API's route functions share one: a log group per
   * route would cost a CloudFormation resource each). Lambda names each stream after its function.
   * Omitted: the function gets a log group of its own.
   */
  logGroup?: ILogGroup;
}

/** What each access to the vault content bucket grants (on its objects only). */
export const VAULT_BUCKET_ACTIONS = {
  read: ['s3:GetObject'],
  delete: ['s3:DeleteObject'],
  write: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
} as const;

/** The stack at the top of a construct's nested stacks: its name is a literal, never a token. */
function rootStackOf(scope: Construct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

/** A literal of the root stack's environment when it has one, else the pseudo parameter (the same in every stack). */
const literalOr = (value: string, pseudo: string) => (Token.isUnresolved(value) ? pseudo : value);

export class ServiceFunction extends Construct {
  readonly fn: LambdaFunction;
  /**
   * The execution role's name, chosen here rather than by CloudFormation: the envelope key's policy
   * (in the parent stack) names the role by ARN while the role lives in an area's nested stack, and a
   * reference to the role itself would make the parent depend on the nested stack that depends on the
   * key (docs/decisions.md, "One stack per area"). Root stack name (26), region (at most 14), construct
   * id (14) and a hash of the path: unique per account, at most 61 characters.
   */
  readonly roleName: string;

  /** The module under functions/ whose `create(deps)` is the handler (what the bundle holds). */
  readonly handlerModule: string;

  /** The ports whose adapters its package holds (portsOf): a grant for another is refused. */
  readonly ports: ReadonlySet<LambdaPort>;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.handlerModule = props.handler;
    this.ports = new Set(portsOf(props.handler));
    const root = rootStackOf(this);
    this.roleName = [
      root.stackName.slice(0, 26),
      literalOr(root.region, Aws.REGION),
      id.slice(0, 14),
      createHash('sha256').update(this.node.path).digest('hex').slice(0, 4),
    ].join('-');
    const logGroup =
      props.logGroup ??
      new LogGroup(this, 'Logs', {
        retention: props.stage.logRetention,
        removalPolicy: props.stage.removalPolicy,
      });
    // Instead of AWSLambdaBasicExecutionRole (logs:* on every log group): write to its log group only.
    // Tracing's X-Ray statements come first, so the grants document is never empty.
    const role = new FunctionRole(this, 'Role', new PolicyDocument(), {
      roleName: this.roleName,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        [LOGS_POLICY]: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              resources: [logGroup.logGroupArn],
            }),
          ],
        }),
      },
    });
    this.fn = new LambdaFunction(this, 'Function', {
      role,
      code: bundledCode(props.handler, sourceMapsOf(this)),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      description: props.description,
      reservedConcurrentExecutions: props.reservedConcurrency,
      environment: {
        // No NODE_OPTIONS=--enable-source-maps: Node would read and parse the whole map at every cold
        // start. With debugging on the map is beside the bundle and functions/platform/stack-trace.ts
        // reads it when an error's stack is logged (docs/decisions.md, "Source maps read at the first
        // logged error"); otherwise it is in the cloud assembly's SOURCE_MAPS_DIR.
        STAGE: props.stage.stage,
        ...(props.stage.publicBaseUrl ? { PUBLIC_BASE_URL: props.stage.publicBaseUrl } : {}),
        ...props.environment,
      },
    });
  }

  /**
   * Grants exactly the DynamoDB actions the Table port issues for `access` (on the table and its
   * indexes) and sets the table's name variable, together.
   */
  bindTable(name: TableName, table: ITable, access: 'read' | 'write'): this {
    this.holds('tables', `table ${name}`);
    table.grant(this.fn, ...TABLE_ACTIONS[access]);
    this.fn.addEnvironment(TABLE_DEFINITIONS[name].envVar, table.tableName);
    return this;
  }

  bindKey(key: IKey, use: 'encrypt' | 'decrypt' | 'both'): this {
    this.holds('keys', 'the envelope key');
    const actions = [
      ...(use === 'encrypt' || use === 'both' ? ['kms:GenerateDataKey'] : []),
      ...(use === 'decrypt' || use === 'both' ? ['kms:Decrypt'] : []),
    ];
    // The key policy delegates its use to IAM (lib/data.ts) and names no role: this policy is the grant.
    new Policy(this, 'KeyUse', {
      roles: [this.fn.role!],
      statements: [new PolicyStatement({ actions, resources: [key.keyArn] })],
    });
    // The key policy delegates no use to the account (lib/data.ts): it allows this use to this role
    // only, by the role's ARN as a condition. Not as a principal: that would reference the role (in a
    // nested stack) from the key (in the parent), a dependency cycle; and KMS refuses a principal that
    // does not exist yet, while a condition is only a string.
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new AccountRootPrincipal()],
        actions,
        resources: ['*'],
        conditions: { ArnEquals: { 'aws:PrincipalArn': this.roleArnIn() } },
      }),
    );
    this.fn.addEnvironment('KMS_KEY_ID', key.keyArn);
    return this;
  }

  /** Refuses a grant the function's code could not use: its package holds no adapter for that port. */
  private holds(port: LambdaPort, what: string): void {
    if (!this.ports.has(port))
      throw new Error(
        `${this.node.path}: granted ${what}, but functions/${this.handlerModule} declares no ${port} in its uses`,
      );
  }

  /** The role's ARN from its name alone, without a reference to the role (the same string in any stack). */
  roleArnIn(): string {
    const root = rootStackOf(this);
    return `arn:${Aws.PARTITION}:iam::${literalOr(root.account, Aws.ACCOUNT_ID)}:role/${this.roleName}`;
  }

  /** Lets the function peek at a queue's dead-letter queue (receive only) and sets its URL variable. */
  bindDeadLetters(name: QueueName, deadLetterQueue: IQueue): this {
    this.holds('queues', `dead letters of ${name}`);
    deadLetterQueue.grant(this.fn, 'sqs:ReceiveMessage');
    this.fn.addEnvironment(DLQ_URL_ENV[name], deadLetterQueue.queueUrl);
    return this;
  }

  /**
   * The vault stand-in's content bucket: `read` GetObject, `write` also PutObject (multipart included)
   * and DeleteObject, `delete` DeleteObject only; sets its name variable.
   */
  bindVaultBucket(bucket: IBucket, access: 'read' | 'write' | 'delete'): this {
    this.holds('vault', 'the vault bucket');
    const actions = [...VAULT_BUCKET_ACTIONS[access]];
    this.fn.addToRolePolicy(new PolicyStatement({ actions, resources: [bucket.arnForObjects('*')] }));
    // A reader may list the bucket: then S3 answers a missing key NoSuchKey (404), as the adapter and
    // the emulator expect, not AccessDenied (403) (functions/adapters/aws/s3-blobs.ts).
    if (access !== 'delete')
      this.fn.addToRolePolicy(
        new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
      );
    this.fn.addEnvironment(VAULT_BUCKET_ENV, bucket.bucketName);
    return this;
  }

  /**
   * Lets the function read one secret setting at run time (functions/adapters/aws/secrets-manager.ts):
   * GetSecretValue on that secret only (not DescribeSecret: the reader does not need it), and its ARN
   * in `<NAME>_ARN`.
   */
  bindSecret(name: string, secret: ISecret): this {
    this.holds('secrets', `secret ${name}`);
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
    this.fn.addEnvironment(secretArnEnv(name), secret.secretArn);
    return this;
  }

  bindQueue(name: QueueName, queue: IQueue): this {
    this.holds('queues', `queue ${name}`);
    queue.grantSendMessages(this.fn);
    this.fn.addEnvironment(QUEUE_URL_ENV[name], queue.queueUrl);
    return this;
  }
}
