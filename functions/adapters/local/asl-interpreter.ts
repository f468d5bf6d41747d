// A small Amazon States Language interpreter, so the local runtime runs the very definition CDK deploys.
// It covers what our definitions use — Pass, Task, Parallel, Choice, Succeed, Fail; InputPath,
// Parameters, ResultSelector, ResultPath, OutputPath; Retry (IntervalSeconds, BackoffRate,
// MaxAttempts, MaxDelaySeconds) and Catch; a few intrinsics — and refuses anything else loudly.

import type { AslDefinition, AslRetrier, AslState } from '../../platform/asl';

export type { AslDefinition } from '../../platform/asl';

/** A failure in ASL terms: an error name the Retry and Catch rules match on, and a cause. */
export class StatesError extends Error {
  constructor(
    readonly error: string,
    override readonly cause = '',
  ) {
    super(`${error}: ${cause}`);
    this.name = 'StatesError';
  }
}

export interface TaskContext {
  executionId: string;
  stateName: string;
  retryCount: number;
}

/** Runs a Task's resource with its effective input; throws to fail the task (the error's name is its Error). */
export type TaskInvoker = (resource: string, input: unknown, context: TaskContext) => Promise<unknown>;

export interface RunOptions {
  invoke: TaskInvoker;
  executionId: string;
  executionName: string;
  /** Retry waits go through here, so tests can skip them. */
  sleep?: (ms: number) => Promise<void>;
}

/** AWS stops a standard execution at 25,000 history events; a few events per state, so about this many. */
const MAX_STATES_ENTERED = 8_000;

const KNOWN_TYPES = new Set(['Pass', 'Task', 'Parallel', 'Choice', 'Succeed', 'Fail']);

const clone = <T>(value: T): T => (value === undefined ? value : (structuredClone(value) as T));

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- paths ---------------------------------------------------------------------------------------

function pathSegments(path: string): (string | number)[] {
  const rest = path.startsWith('$$') ? path.slice(2) : path.startsWith('$') ? path.slice(1) : undefined;
  if (rest === undefined) throw new StatesError('States.Runtime', `Not a path: ${path}`);
  const segments: (string | number)[] = [];
  const pattern = /\.([A-Za-z0-9_-]+)|\[(\d+)\]|\['([^']*)'\]/y;
  let at = 0;
  while (at < rest.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(rest);
    if (!match) throw new StatesError('States.Runtime', `Unsupported path: ${path}`);
    segments.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3])!);
    at = pattern.lastIndex;
  }
  return segments;
}

const MISSING = Symbol('missing');

function lookup(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const segment of pathSegments(path)) {
    if (current === null || typeof current !== 'object') return MISSING;
    if (!Object.hasOwn(current, segment)) return MISSING;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function read(input: unknown, context: unknown, path: string): unknown {
  const value = path.startsWith('$$') ? lookup(context, path) : lookup(input, path);
  if (value === MISSING) {
    throw new StatesError('States.Runtime', `The path ${path} matched nothing in the input`);
  }
  return clone(value);
}

/** ResultPath: where the state's result goes in its input. */
function place(input: unknown, resultPath: string | null | undefined, result: unknown): unknown {
  if (resultPath === null) return clone(input);
  if (resultPath === undefined || resultPath === '$') return result;
  const segments = pathSegments(resultPath);
  const root: unknown = clone(input) ?? {};
  if (root === null || typeof root !== 'object') {
    throw new StatesError('States.Runtime', `ResultPath ${resultPath} needs an object input`);
  }
  let target = root as Record<string | number, unknown>;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      target[segment] = result;
      return;
    }
    const next = target[segment];
    if (next === null || typeof next !== 'object') target[segment] = {};
    target = target[segment] as Record<string | number, unknown>;
  });
  return root;
}

function select(value: unknown, path: string | null | undefined, context: unknown): unknown {
  if (path === null) return {};
  if (path === undefined || path === '$') return value;
  return read(value, context, path);
}

// ---- payload templates and intrinsic functions ----------------------------------------------------

function splitArguments(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      current += c;
      if (c === '\\') current += text[++i] ?? '';
      else if (c === "'") quoted = false;
      continue;
    }
    if (c === "'") quoted = true;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}

function argument(text: string, input: unknown, context: unknown): unknown {
  if (text.startsWith("'")) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  if (text.startsWith('$')) return read(input, context, text);
  if (text.startsWith('States.')) return intrinsic(text, input, context);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  const number = Number(text);
  if (text !== '' && Number.isFinite(number)) return number;
  throw new StatesError('States.Runtime', `Unsupported intrinsic argument: ${text}`);
}

function intrinsic(text: string, input: unknown, context: unknown): unknown {
  const match = /^States\.([A-Za-z]+)\((.*)\)$/s.exec(text.trim());
  if (!match) throw new StatesError('States.Runtime', `Not an intrinsic function call: ${text}`);
  const args = splitArguments(match[2]!).map((a) => argument(a, input, context));
  const fail = (why: string) => new StatesError('States.IntrinsicFailure', `States.${match[1]}: ${why}`);
  switch (match[1]) {
    case 'MathAdd': {
      const [a, b] = args;
      if (typeof a !== 'number' || typeof b !== 'number') throw fail('needs two numbers');
      return a + b;
    }
    case 'Format': {
      const [template, ...values] = args;
      if (typeof template !== 'string') throw fail('needs a template string');
      let i = 0;
      return template.replace(/\{\}/g, () => {
        const value = values[i++];
        return typeof value === 'string' ? value : JSON.stringify(value);
      });
    }
    case 'JsonToString':
      return JSON.stringify(args[0]);
    case 'StringToJson':
      if (typeof args[0] !== 'string') throw fail('needs a string');
      return JSON.parse(args[0]) as unknown;
    case 'Array':
      return args;
    default:
      throw new StatesError('States.Runtime', `Unsupported intrinsic function States.${match[1]}`);
  }
}

/** Parameters and ResultSelector: `key.$` fields take a path or an intrinsic; the rest is literal. */
function fill(template: unknown, input: unknown, context: unknown): unknown {
  if (Array.isArray(template)) return template.map((t) => fill(t, input, context));
  if (template === null || typeof template !== 'object') return template;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template)) {
    if (!key.endsWith('.$')) {
      out[key] = fill(value, input, context);
      continue;
    }
    if (typeof value !== 'string') throw new StatesError('States.Runtime', `${key} must be a string`);
    out[key.slice(0, -2)] = value.startsWith('States.')
      ? intrinsic(value, input, context)
      : read(input, context, value);
  }
  return out;
}

// ---- choice rules ---------------------------------------------------------------------------------

function holds(rule: Record<string, unknown>, input: unknown, context: unknown): boolean {
  if (Array.isArray(rule.And))
    return (rule.And as Record<string, unknown>[]).every((r) => holds(r, input, context));
  if (Array.isArray(rule.Or))
    return (rule.Or as Record<string, unknown>[]).some((r) => holds(r, input, context));
  if (rule.Not) return !holds(rule.Not as Record<string, unknown>, input, context);
  const variable = rule.Variable;
  if (typeof variable !== 'string') throw new StatesError('States.Runtime', 'A choice rule needs a Variable');
  const found = variable.startsWith('$$') ? lookup(context, variable) : lookup(input, variable);
  if ('IsPresent' in rule) return (found !== MISSING) === rule.IsPresent;
  if (found === MISSING) {
    throw new StatesError('States.Runtime', `Invalid path ${variable}: the choice state could not find it`);
  }
  const value = found;
  const comparisons: Record<string, (expected: unknown) => boolean> = {
    BooleanEquals: (e) => value === e,
    StringEquals: (e) => value === e,
    NumericEquals: (e) => typeof value === 'number' && value === e,
    NumericLessThan: (e) => typeof value === 'number' && value < (e as number),
    NumericLessThanEquals: (e) => typeof value === 'number' && value <= (e as number),
    NumericGreaterThan: (e) => typeof value === 'number' && value > (e as number),
    NumericGreaterThanEquals: (e) => typeof value === 'number' && value >= (e as number),
    IsNull: (e) => (value === null) === e,
    IsBoolean: (e) => (typeof value === 'boolean') === e,
    IsNumeric: (e) => (typeof value === 'number') === e,
    IsString: (e) => (typeof value === 'string') === e,
  };
  const operator = Object.keys(comparisons).find((name) => name in rule);
  if (!operator) throw new StatesError('States.Runtime', `Unsupported choice rule ${JSON.stringify(rule)}`);
  return comparisons[operator]!(rule[operator]);
}

// ---- errors, retry, catch -------------------------------------------------------------------------

function errorMatches(names: string[], error: string): boolean {
  return names.some(
    (name) =>
      name === error ||
      (name === 'States.ALL' && error !== 'States.Runtime') ||
      (name === 'States.TaskFailed' && error !== 'States.Timeout' && error !== 'States.Runtime'),
  );
}

function asStatesError(error: unknown): StatesError {
  if (error instanceof StatesError) return error;
  if (error instanceof Error) {
    // What a Lambda task reports: its error type as Error, and type and message as a JSON Cause.
    return new StatesError(
      error.name || 'Error',
      JSON.stringify({ errorType: error.name, errorMessage: error.message }),
    );
  }
  return new StatesError('Error', String(error));
}

async function withTimeout<T>(work: Promise<T>, seconds: number | undefined): Promise<T> {
  if (!seconds) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StatesError('States.Timeout', `The task did not finish within ${seconds} s`)),
      seconds * 1000,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---- execution --------------------------------------------------------------------------------------

interface Run {
  options: RunOptions;
  context: Record<string, unknown>;
  entered: number;
}

export function validateDefinition(definition: AslDefinition, where = 'definition'): void {
  if (!definition.States?.[definition.StartAt]) {
    throw new Error(`${where}: StartAt ${definition.StartAt} names no state`);
  }
  for (const [name, state] of Object.entries(definition.States)) {
    if (!KNOWN_TYPES.has(state.Type))
      throw new Error(`${where}: state ${name} has unsupported type ${state.Type}`);
    const targets = [state.Next, state.Default, ...(state.Catch ?? []).map((c) => c.Next)];
    for (const choice of state.Choices ?? []) targets.push(choice.Next as string | undefined);
    for (const target of targets) {
      if (target !== undefined && !definition.States[target]) {
        throw new Error(`${where}: state ${name} goes to unknown state ${target}`);
      }
    }
    state.Branches?.forEach((branch, i) => validateDefinition(branch, `${where}/${name}[${i}]`));
  }
}

/** One attempt of a Task or Parallel: effective input in, result placed into the state's input. */
async function attempt(name: string, state: AslState, input: unknown, run: Run, retryCount: number) {
  const context = { ...run.context, State: { Name: name, RetryCount: retryCount } };
  const effective = state.Parameters !== undefined ? fill(state.Parameters, input, context) : input;
  let result: unknown;
  if (state.Type === 'Task') {
    if (!state.Resource) throw new StatesError('States.Runtime', `Task ${name} has no Resource`);
    const taskContext = { executionId: run.options.executionId, stateName: name, retryCount };
    result = await withTimeout(
      run.options.invoke(state.Resource, clone(effective), taskContext).catch((e: unknown) => {
        throw asStatesError(e);
      }),
      state.TimeoutSeconds,
    );
  } else {
    result = await Promise.all(
      (state.Branches ?? []).map((branch) => execute(branch, clone(effective), run)),
    );
  }
  return state.ResultSelector !== undefined ? fill(state.ResultSelector, result, context) : result;
}

/** Runs a Task or Parallel under its Retry rules; returns the result or the error that ended the retries. */
async function withRetries(
  name: string,
  state: AslState,
  input: unknown,
  run: Run,
): Promise<{ result: unknown } | { error: StatesError }> {
  const attempts = new Map<AslRetrier, number>();
  const sleep = run.options.sleep ?? realSleep;
  for (let retryCount = 0; ; retryCount++) {
    try {
      return { result: await attempt(name, state, input, run, retryCount) };
    } catch (thrown) {
      const error = asStatesError(thrown);
      const retrier = (state.Retry ?? []).find((r) => errorMatches(r.ErrorEquals, error.error));
      if (!retrier) return { error };
      const done = attempts.get(retrier) ?? 0;
      if (done >= (retrier.MaxAttempts ?? 3)) return { error };
      attempts.set(retrier, done + 1);
      const delay = (retrier.IntervalSeconds ?? 1) * (retrier.BackoffRate ?? 2) ** done;
      await sleep(Math.min(delay, retrier.MaxDelaySeconds ?? Infinity) * 1000);
    }
  }
}

/** Runs a state machine (or a Parallel branch) to its end; throws StatesError when it fails. */
async function execute(definition: AslDefinition, input: unknown, run: Run): Promise<unknown> {
  let name = definition.StartAt;
  let current = input;
  for (;;) {
    if (++run.entered > MAX_STATES_ENTERED) {
      throw new StatesError('States.Runtime', `More than ${MAX_STATES_ENTERED} states entered`);
    }
    const state = definition.States[name];
    if (!state) throw new StatesError('States.Runtime', `No state ${name}`);
    const stateInput = select(current, state.InputPath, run.context);
    let output: unknown;
    let next = state.Next;
    let caught = false;
    switch (state.Type) {
      case 'Succeed':
        return select(stateInput, state.OutputPath, run.context);
      case 'Fail':
        throw new StatesError(state.Error ?? 'States.Fail', state.Cause ?? '');
      case 'Choice': {
        const chosen = (state.Choices ?? []).find((rule) => holds(rule, stateInput, run.context));
        next = (chosen?.Next as string | undefined) ?? state.Default;
        if (!next) throw new StatesError('States.NoChoiceMatched', `No choice of ${name} matched`);
        output = select(stateInput, state.OutputPath, run.context);
        break;
      }
      case 'Pass': {
        const result =
          state.Parameters !== undefined
            ? fill(state.Parameters, stateInput, run.context)
            : 'Result' in state
              ? clone(state.Result)
              : stateInput;
        output = select(place(stateInput, state.ResultPath, result), state.OutputPath, run.context);
        break;
      }
      case 'Task':
      case 'Parallel': {
        const outcome = await withRetries(name, state, stateInput, run);
        if ('error' in outcome) {
          const catcher = (state.Catch ?? []).find((c) => errorMatches(c.ErrorEquals, outcome.error.error));
          if (!catcher) throw outcome.error;
          const errorOutput = { Error: outcome.error.error, Cause: outcome.error.cause };
          output = place(stateInput, catcher.ResultPath, errorOutput);
          next = catcher.Next;
          caught = true; // a catcher's Next is taken even from a state that would End
          break;
        }
        output = select(place(stateInput, state.ResultPath, outcome.result), state.OutputPath, run.context);
        break;
      }
      default:
        throw new StatesError('States.Runtime', `Unsupported state type ${String(state.Type)}`);
    }
    if ((state.End && !caught) || !next) return output;
    name = next;
    current = output;
  }
}

/** Runs an execution to its end: resolves with the output, or rejects with the StatesError that failed it. */
export async function runStateMachine(
  definition: AslDefinition,
  input: unknown,
  options: RunOptions,
): Promise<unknown> {
  validateDefinition(definition);
  const run: Run = {
    options,
    entered: 0,
    context: {
      Execution: {
        Id: options.executionId,
        Name: options.executionName,
        Input: clone(input),
        StartTime: new Date().toISOString(),
      },
    },
  };
  return withTimeout(execute(definition, clone(input), run), definition.TimeoutSeconds);
}
