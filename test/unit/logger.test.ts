import { redact, redactString, redactingReplacer } from '../../functions/platform/logger';

describe('log redaction', () => {
  it('redacts secret fields at any depth, case-insensitively', () => {
    expect(
      redact({
        headers: { Authorization: 'Bearer abc', Cookie: 'c=1' },
        body: { refresh_token: 'r', code: 'c', state: 's', keyId: 'key_1' },
      }),
    ).toEqual({
      headers: { Authorization: '[REDACTED]', Cookie: '[REDACTED]' },
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

  it('keeps error messages but not their secrets', () => {
    expect(redact(new Error('failed with Bearer tok'))).toEqual({
      name: 'Error',
      message: 'failed with Bearer [REDACTED]',
    });
  });

  it('redacts an authorization code by its context, and keeps error codes readable (issue 24 item 10)', () => {
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
