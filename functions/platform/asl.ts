// Amazon States Language, as far as our workflow definitions use it: the shape of a definition that
// CDK deploys to Step Functions and the local runtime's interpreter runs. Definitions
// (e.g. connectors/infra/purge-definition.ts) are typed by the language, not by an interpreter.

export interface AslDefinition {
  StartAt: string;
  States: Record<string, AslState>;
  Comment?: string;
  TimeoutSeconds?: number;
}

export interface AslRetrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
}

export interface AslCatcher {
  ErrorEquals: string[];
  Next: string;
  ResultPath?: string | null;
}

export interface AslState {
  Type: 'Pass' | 'Task' | 'Parallel' | 'Choice' | 'Succeed' | 'Fail';
  Next?: string;
  End?: boolean;
  InputPath?: string | null;
  OutputPath?: string | null;
  ResultPath?: string | null;
  Parameters?: unknown;
  ResultSelector?: unknown;
  Result?: unknown;
  Resource?: string;
  TimeoutSeconds?: number;
  Branches?: AslDefinition[];
  Choices?: Record<string, unknown>[];
  Default?: string;
  Retry?: AslRetrier[];
  Catch?: AslCatcher[];
  Error?: string;
  Cause?: string;
  [field: string]: unknown;
}
