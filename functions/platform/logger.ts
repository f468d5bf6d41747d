// Structured JSON logs. Secrets are redacted by field name and, as a second net, by value shape.

type Level = 'debug' | 'info' | 'warn' | 'error';

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
  'code',
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
  [/([?&](?:code|state|access_token|refresh_token|token)=)[^&\s"']+/g, '$1[REDACTED]'],
];

export function redactString(value: string): string {
  return SECRET_VALUES.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[TRUNCATED]';
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_FIELDS.has(k.toLowerCase()) ? '[REDACTED]' : redact(v, depth + 1),
      ]),
    );
  }
  return value;
}

const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export class Logger {
  constructor(
    private readonly context: Record<string, unknown> = {},
    private readonly minimum: Level = (process.env.LOG_LEVEL as Level | undefined) ?? 'info',
  ) {}

  child(context: Record<string, unknown>): Logger {
    return new Logger({ ...this.context, ...context }, this.minimum);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.write('error', msg, fields);
  }

  private write(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
    if (LEVELS[level] < LEVELS[this.minimum]) return;
    const line = redact({ level, time: new Date().toISOString(), msg, ...this.context, ...fields });
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}

export const logger = new Logger({ service: 'connector-event-service' });
