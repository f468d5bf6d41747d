// Structured JSON logs through Powertools for AWS Lambda's Logger (Lambda context, cold start and
// X-Ray trace id on every line), with our redaction as its JSON replacer: secrets are redacted by field
// name and, as a second net, by value shape, whatever a call site passes.
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';

export const SERVICE_NAME = 'connector-event-service';

const SECRET_FIELDS = new Set([
  'authorization',
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
const SECRET_VALUES: [RegExp, string][] = [
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

export function redactString(value: string): string {
  return SECRET_VALUES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[TRUNCATED]';
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
  if (value && typeof value === 'object') {
    const oauth = isAuthorizationCode(value as Record<string, unknown>);
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_FIELDS.has(k.toLowerCase()) || (oauth && k === 'code') ? '[REDACTED]' : redact(v, depth + 1),
      ]),
    );
  }
  return value;
}

/** Powertools calls it for every key and value it serialises, before its own rules (Error, BigInt). */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && SECRET_FIELDS.has(key.toLowerCase())) return '[REDACTED]';
  if (typeof value === 'string') return redactString(value);
  if (value instanceof Error) return redact(value);
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

/** The one Powertools Logger of a process; the middy stack and the workers add the Lambda context to it. */
export const powertoolsLogger = new PowertoolsLogger({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR',
  jsonReplacerFn: redactingReplacer,
});

/**
 * What core code logs through: a context (request id, route, organization, ...) carried as plain
 * keys on each line. A child adds keys without building another Powertools logger, so a per-record
 * child on the delivery hot path costs one object spread.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';

export class Logger {
  private readonly sink: PowertoolsLogger;

  /** `level`: a logger of its own with that minimum level (tests keep their output quiet). */
  constructor(
    private readonly context: Record<string, unknown> = {},
    level?: Level | PowertoolsLogger,
  ) {
    this.sink =
      level === undefined
        ? powertoolsLogger
        : typeof level === 'string'
          ? powertoolsLogger.createChild({ logLevel: level.toUpperCase() as Uppercase<Level> })
          : level;
  }

  child(context: Record<string, unknown>): Logger {
    return new Logger({ ...this.context, ...context }, this.sink);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.sink.debug(msg, { ...this.context, ...fields });
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.sink.info(msg, { ...this.context, ...fields });
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.sink.warn(msg, { ...this.context, ...fields });
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.sink.error(msg, { ...this.context, ...fields });
  }
}

export const logger = new Logger();
