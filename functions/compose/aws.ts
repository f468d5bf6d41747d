// The composition of the deployed runtime: every Lambda's handler is built from these ports (the
// entry CDK generates for each function calls the handler module's factory with them). Each table,
// key, queue, workflow and the vault is built on first use, so a Lambda needs the environment
// variables (and IAM grants) of only the resources it touches. The emulated AWS runtime and the
// integration tests use the same composition against emulator endpoints.
import { awsKeys, awsQueues, awsSecrets, awsTables, awsVault, awsWorkflows } from '../adapters/aws';

/**
 * The SDK clients as the aws adapters build them (traced, path-style S3 at an emulator), for the
 * emulated runtime's own tools (provisioning, the SQS event source, the callback task runner): they
 * get them from this composition, not from the adapters.
 */
export type { ClientRef } from '../adapters/aws/clients';
export { kms, s3, secretsManager, sfn, sqs } from '../adapters/aws/clients';
export type { AwsService, CallObserver } from '../adapters/aws/call-counter';
export { HOST_OBSERVER, observeCalls } from '../adapters/aws/call-counter';
import type { Clock } from '../platform/clock';
import { deployedClock, systemClock } from '../platform/clock';
import type {
  Deps,
  KeyManagement,
  Queues,
  Secrets,
  Tables,
  VaultDocuments,
  Workflows,
} from '../platform/ports';

export function createAwsDeps(clock: Clock = systemClock): Deps {
  let keys: KeyManagement | undefined;
  let workflows: Workflows | undefined;
  let vault: VaultDocuments | undefined;
  let secrets: Secrets | undefined;
  const tables = awsTables();
  return {
    tables,
    queues: awsQueues(),
    get keys() {
      keys ??= awsKeys();
      return keys;
    },
    get workflows() {
      workflows ??= awsWorkflows();
      return workflows;
    },
    get vault() {
      vault ??= awsVault(tables, clock);
      return vault;
    },
    get secrets() {
      secrets ??= awsSecrets();
      return secrets;
    },
    clock,
  };
}

/**
 * The adapters one Lambda's package holds: its generated entry (lib/service-function.ts) passes the
 * factories of the ports its route or worker declares it uses, and imports no other, so the bundle
 * holds only the SDK chunks that function can load.
 */
export interface LambdaAdapters {
  tables?: () => Tables;
  queues?: () => Queues;
  keys?: () => KeyManagement;
  workflows?: () => Workflows;
  vault?: (tables: Tables, clock: Clock) => VaultDocuments;
  secrets?: () => Secrets;
}

/** A port the function's package does not hold: reaching it is a declaration missing from its uses. */
function absent(port: string): never {
  throw new Error(`${port}: this function's package holds no such adapter (its uses declare none)`);
}

/** Deps from the adapters given, each built on first use; a port not given throws when reached. */
export function lambdaDepsOf(adapters: LambdaAdapters, clock: Clock): Deps {
  let tables: Tables | undefined;
  let queues: Queues | undefined;
  let keys: KeyManagement | undefined;
  let workflows: Workflows | undefined;
  let vault: VaultDocuments | undefined;
  let secrets: Secrets | undefined;
  return {
    get tables() {
      tables ??= adapters.tables ? adapters.tables() : absent('tables');
      return tables;
    },
    get queues() {
      queues ??= adapters.queues ? adapters.queues() : absent('queues');
      return queues;
    },
    get keys() {
      keys ??= adapters.keys ? adapters.keys() : absent('keys');
      return keys;
    },
    get workflows() {
      workflows ??= adapters.workflows ? adapters.workflows() : absent('workflows');
      return workflows;
    },
    get vault() {
      vault ??= adapters.vault ? adapters.vault(this.tables, clock) : absent('vault');
      return vault;
    },
    get secrets() {
      secrets ??= adapters.secrets ? adapters.secrets() : absent('secrets');
      return secrets;
    },
    clock,
  };
}

let lambdaDeps: Deps | undefined;

/** Built once per Lambda container, at the first handler's construction, from its package's adapters. */
export function awsLambdaDeps(adapters: LambdaAdapters): Deps {
  lambdaDeps ??= lambdaDepsOf(adapters, deployedClock());
  return lambdaDeps;
}
