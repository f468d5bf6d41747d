import type { Context } from 'aws-lambda';
import { jest } from '@jest/globals';
import {
  LogSink,
  Logger,
  SECRET_VALUES,
  inInvocationScope,
  redact,
  redactString,
  redactingReplacer,
} from '../../functions/platform/logger';

describe('log redaction', () => {
  it('redacts secret fields at any depth, case-insensitively', () => {
    expect(
      redact({
        headers: { Authorization: 'Bearer abc', Cookie: 'c=1', 'X-Auth-Token': 'at-1' },
        body: { refresh_token: 'r', code: 'c', state: 's', keyId: 'key_1' },
      }),
    ).toEqual({
      headers: { Authorization: '[REDACTED]', Cookie: '[REDACTED]', 'X-Auth-Token': '[REDACTED]' },
      body: { refresh_token: '[REDACTED]', code: '[REDACTED]', state: '[REDACTED]', keyId: 'key_1' },
    });
  });

  it('redacts secret shapes inside free text', () => {
    const key = `lpk_${'a'.repeat(20)}_${'B'.repeat(43)}`;
    expect(redactString(`key ${key} used`)).toBe(`key lpk_${'a'.repeat(20)}_[REDACTED] used`);
    expect(redactString('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe('whsec_[REDACTED]');
    expect(redactString('Authorization: Bearer xyz.abc')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactString('https://x/cb?code=abc123&state=s1&other=1')).toBe(
      'https://x/cb?code=[REDACTED]&state=[REDACTED]&other=1',
    );
    expect(redactString('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe('jwt [REDACTED_JWT]');
  });

  it('redacts whatever the patterns find even though a cheap scan screens each string first', () => {
    // Every secret shape in every case and position the patterns accept, and lookalikes they do not:
    // the screened result must equal the five replacements applied to each.
    const shapes = [
      `lpk_${'b'.repeat(20)}_tail`,
      'whsec_abc',
      'Bearer x',
      'bearer x',
      'BEARER\tx',
      'eyJa.b.c',
      '?code=1',
      '&state=2',
      '#access_token=3',
      'refresh_token=4',
      'token=5',
      'code=6',
      'Token=7',
      'lpk_short',
      'eyj.lower.case',
      'plain text',
      'evt_01jabcdefghijklmnopqrstuvw',
    ];
    const unscreened = (text: string) =>
      SECRET_VALUES.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
    for (const a of shapes)
      for (const b of shapes) {
        const text = `${a} ${b}`;
        expect(redactString(text)).toBe(unscreened(text));
      }
  });

  it('keeps error messages but not their secrets', () => {
    expect(redact(new Error('failed with Bearer tok'))).toEqual({
      name: 'Error',
      message: 'failed with Bearer [REDACTED]',
    });
  });

  it('redacts an authorization code by its context, and keeps error codes readable', () => {
    const line = {
      message: 'request refused',
      status: 400,
      code: 'INVALID_REQUEST',
      error: { code: 'ECONNRESET' },
      callback: { code: 'ac-8f2e1d', state: 'st-1', iss: 'https://idp' },
      tokenRequest: { grant_type: 'authorization_code', code: 'ac-77', redirect_uri: 'https://x/cb' },
      authorization_code: 'ac-99',
      body: 'code=ac-55&grant_type=authorization_code',
    };
    for (const text of [JSON.stringify(redact(line)), JSON.stringify(line, redactingReplacer)]) {
      expect(text).toContain('"code":"INVALID_REQUEST"');
      expect(text).toContain('"code":"ECONNRESET"');
      expect(text).not.toMatch(/ac-8f2e1d|ac-77|ac-99|ac-55/);
    }
  });
});

describe('log lines', () => {
  const lines: { stream: string; record: Record<string, unknown> }[] = [];
  beforeEach(() => {
    lines.length = 0;
    for (const stream of ['stdout', 'stderr'] as const) {
      jest.spyOn(process[stream], 'write').mockImplementation((chunk: unknown) => {
        lines.push({ stream, record: JSON.parse(String(chunk)) as Record<string, unknown> });
        return true;
      });
    }
  });
  afterEach(() => jest.restoreAllMocks());

  it('writes one JSON line per call at or above its level, with the Lambda context and cold start as Powertools names them', () => {
    const sink = new LogSink('info');
    const log = new Logger({ route: 'r1' }, sink);
    log.debug('not shown');
    const context = {
      invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:f',
      memoryLimitInMB: '512',
      functionName: 'f',
      awsRequestId: 'req-1',
    } as Context;
    sink.addContext(context);
    log.child({ attempt: 2 }).info('first', { token: 'secret-value', note: 'Bearer abc' });
    sink.addContext({ ...context, awsRequestId: 'req-2' });
    log.error('second', { error: new Error('boom Bearer xyz') });
    expect(lines.map((l) => l.stream)).toEqual(['stdout', 'stderr']);
    expect(lines[0]!.record).toMatchObject({
      level: 'INFO',
      message: 'first',
      service: 'connector-event-service',
      cold_start: true,
      function_name: 'f',
      function_memory_size: 512,
      function_request_id: 'req-1',
      route: 'r1',
      attempt: 2,
      token: '[REDACTED]',
      note: 'Bearer [REDACTED]',
    });
    expect(lines[1]!.record).toMatchObject({
      level: 'ERROR',
      cold_start: false,
      function_request_id: 'req-2',
      error: { name: 'Error', message: 'boom Bearer [REDACTED]' },
    });
  });

  it('gives each of several invocations running at once in one process its own context (the development runtimes)', async () => {
    const sink = new LogSink('info');
    const log = new Logger({}, sink);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const invoke = (name: string) =>
      inInvocationScope(async () => {
        sink.addContext({
          invokedFunctionArn: `arn:aws:lambda:local:0:function:${name}`,
          memoryLimitInMB: '512',
          functionName: name,
          awsRequestId: `req-${name}`,
        } as Context);
        await tick();
        log.info(`from ${name}`);
        await tick();
        log.info(`again from ${name}`);
      });
    await Promise.all([invoke('fanOut'), invoke('deliver'), invoke('listSources')]);
    expect(lines).toHaveLength(6);
    for (const { record } of lines) {
      const name = String(record.message).split(' ').pop();
      expect(record).toMatchObject({
        function_name: name,
        function_request_id: `req-${name}`,
        cold_start: true,
      });
    }
  });

  it('keeps the line when a field cannot be serialised', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    new Logger({}, new LogSink('debug')).warn('cycle', { cyclic });
    expect(lines[0]!.record).toMatchObject({ message: 'cycle', cyclic: '[UNSERIALISABLE]' });
  });
});
