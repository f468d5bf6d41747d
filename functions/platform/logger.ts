// Structured JSON logs, one line each, as Powertools for AWS Lambda's Logger writes them (Lambda context,
// cold start and X-Ray trace id on every line) without its ~20 KB in every bundle, with our
// redaction as the JSON replacer: secrets are redacted by field name and, as a second net, by value
// shape, whatever a call site passes.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { getOptionalStringFromEnv } from './config';

export const SERVICE_NAME = 'connector-event-service';

const SECRET_FIELDS = new Set([
  'authorization',
  // A provider's own access-token header (iManage Work's): the bare token, no Bearer to match on.
  'x-auth-token',
  'cookie',
  'set-cookie',
  'token',
  'accesstoken',
  'access_token',
  'refreshtoken',
  'refresh_token',
  'idtoken',
  'id_token',
  'authorizationcode',
  'authorization_code',
  'auth_code',
  'codeverifier',
  'code_verifier',
  'clientsecret',
  'client_secret',
  'secret',
  'signingsecret',
  'signing_secret',
  'password',
  'apikey',
  'api_key',
  'state',
  'connecttoken',
]);

// Shapes of secrets this service issues or handles: API keys, signing secrets, bearer tokens, JWTs.
export const SECRET_VALUES: [RegExp, string][] = [
  [/\b(lpk_[a-z2-7]{20})_[A-Za-z0-9_-]+/g, '$1_[REDACTED]'],
  [/whsec_[A-Za-z0-9+/=_-]+/g, 'whsec_[REDACTED]'],
  [/(Bearer\s+)[^\s"']+/gi, '$1[REDACTED]'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[REDACTED_JWT]'],
  [/((?:^|[?&#])(?:code|state|access_token|refresh_token|token)=)[^&\s"']+/g, '$1[REDACTED]'],
];

/**
 * `code` is a secret only where it is an OAuth authorization code: in an object that also carries the
 * redirect's or the token request's other fields. Elsewhere (`{code: 'INVALID_REQUEST'}`, an errno) it
 * is an error code and stays readable.
 */
const OAUTH_SIBLINGS = ['state', 'redirect_uri', 'grant_type', 'code_verifier', 'session_state', 'iss'];
const isAuthorizationCode = (holder: Record<string, unknown>): boolean =>
  'code' in holder && OAUTH_SIBLINGS.some((k) => k in holder);

/**
 * Something every SECRET_VALUES pattern needs in the text (case-insensitively, so a superset): one scan
 * rejects the ids, URLs and messages that hold none, instead of five replacements each (the
 * delivery's EMF line redacted four ids per attempt).
 */
const MAYBE_SECRET = /lpk_|whsec_|bearer|eyJ|code=|state=|token=/i;

export function redactString(value: string): string {
  if (!MAYBE_SECRET.test(value)) return value;
  return SECRET_VALUES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[TRUNCATED]';
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
  if (value && typeof value === 'object') {
    const holder = value as Record<string, unknown>;
    const oauth = isAuthorizationCode(holder);
    // Built by assignment: Object.fromEntries makes a dictionary-mode object.
    const redacted: Record<string, unknown> = {};
    for (const k of Object.keys(holder))
      redacted[k] =
        SECRET_FIELDS.has(k.toLowerCase()) || (oauth && k === 'code')
          ? '[REDACTED]'
          : redact(holder[k], depth + 1);
    return redacted;
  }
  return value;
}

/** Called for every key and value a line serialises: secrets out, errors and BigInts as plain values. */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && SECRET_FIELDS.has(key.toLowerCase())) return '[REDACTED]';
  if (typeof value === 'string') return redactString(value);
  if (value instanceof Error) return redact(value);
  if (typeof value === 'bigint') return value.toString();
  // The replacer sees one key at a time: an object holding an authorization code is redacted whole here.
  if (
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    isAuthorizationCode(value as Record<string, unknown>)
  )
    return { ...(value as Record<string, unknown>), code: '[REDACTED]' };
  return value;
}

type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const levelOf = (name: string | undefined): Level => {
  const level = name?.toLowerCase();
  return level && level in RANK ? (level as Level) : 'info';
};

/** The Lambda invocation's fields, as Powertools names them; a function's first invocation is its cold start. */
let invocation: Record<string, unknown> = {};
const started = new Set<string>();

/**
 * One invocation's own context, where several run at once in one process (the development runtimes run
 * every function in one Node process): lines carry the fields of the invocation they belong to. On
 * Lambda (one invocation at a time per process) there is no scope and the module's fields are used.
 */
const scoped = new AsyncLocalStorage<{ fields: Record<string, unknown> }>();

/** Runs `invoke` (one invocation of a handler) with a log context of its own. */
export function inInvocationScope<T>(invoke: () => T): T {
  return scoped.run({ fields: {} }, invoke);
}

/** Where lines go: a minimum level; the Lambda context (set per invocation) is shared by all sinks. */
export class LogSink {
  constructor(readonly level: Level = levelOf(getOptionalStringFromEnv('LOG_LEVEL'))) {}

  /** The invocation's context on every line from now on (the HTTP and SQS stacks call it). */
  addContext(context: Context): void {
    const fields = {
      cold_start: !started.has(context.functionName),
      function_arn: context.invokedFunctionArn,
      function_memory_size: Number(context.memoryLimitInMB),
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
    };
    started.add(context.functionName);
    const scope = scoped.getStore();
    if (scope) scope.fields = fields;
    else invocation = fields;
  }

  /** Whether a line at `level` is written (callers skip building the fields of one that is not). */
  writes(level: Level): boolean {
    return RANK[level] >= RANK[this.level];
  }

  write(level: Level, message: string, fields: Record<string, unknown>): void {
    if (!this.writes(level)) return;
    const trace = getOptionalStringFromEnv('_X_AMZN_TRACE_ID')?.match(/Root=([^;]+)/)?.[1];
    const record = {
      level: level.toUpperCase(),
      message,
      timestamp: new Date().toISOString(),
      service: SERVICE_NAME,
      ...(scoped.getStore()?.fields ?? invocation),
      ...(trace ? { xray_trace_id: trace } : {}),
      ...fields,
    };
    let line: string;
    try {
      line = JSON.stringify(record, redactingReplacer);
    } catch {
      // A field that cannot be serialised (a cycle) must not lose the line.
      line = JSON.stringify(
        { ...record, ...Object.fromEntries(Object.keys(fields).map((k) => [k, '[UNSERIALISABLE]'])) },
        redactingReplacer,
      );
    }
    (RANK[level] >= RANK.warn ? process.stderr : process.stdout).write(line + '\n');
  }
}

/** The one sink of a process at LOG_LEVEL; the middy stack and the workers add the Lambda context to it. */
export const logSink = new LogSink();

/**
 * What core code logs through: a context (request id, route, organization, ...) carried as plain
 * keys on each line. A child adds keys only, so a per-record child on the delivery hot path costs one
 * object spread.
 */

export class Logger {
  private readonly sink: LogSink;

  /** `level`: a logger of its own with that minimum level (tests keep their output quiet). */
  constructor(
    private readonly context: Record<string, unknown> = {},
    level?: Level | LogSink,
  ) {
    this.sink = level === undefined ? logSink : typeof level === 'string' ? new LogSink(level) : level;
  }

  // Object.assign rather than `{ ...a, ...b }`: on Node 20's V8 a spread followed by more properties
  // takes a slow path (1.5 us for a record's child logger).
  child(context: Record<string, unknown>): Logger {
    return new Logger(Object.assign({}, this.context, context), this.sink);
  }

  // The level is checked before the context and fields are merged: a line below the level (the
  // delivery's info line per attempt at LOG_LEVEL=warn) costs no object spread.
  private line(level: Level, msg: string, fields: Record<string, unknown> | undefined): void {
    if (this.sink.writes(level)) this.sink.write(level, msg, Object.assign({}, this.context, fields));
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.line('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.line('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.line('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.line('error', msg, fields);
  }
}

export const logger = new Logger();
