import { redact, redactString } from '../../functions/platform/logger';

describe('log redaction', () => {
  it('redacts secret fields at any depth, case-insensitively', () => {
    expect(
      redact({
        headers: { Authorization: 'Bearer abc', Cookie: 'c=1' },
        body: { refresh_token: 'r', code: 'c', keyId: 'key_1' },
      }),
    ).toEqual({
      headers: { Authorization: '[REDACTED]', Cookie: '[REDACTED]' },
      body: { refresh_token: '[REDACTED]', code: '[REDACTED]', keyId: 'key_1' },
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
});
