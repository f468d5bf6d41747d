import {
  getNumberFromEnv,
  getOptionalStringFromEnv,
  getStringFromEnv,
  resetConfigCache,
  stage,
} from '../../functions/platform/config';
import { ConfigurationError } from '../../functions/platform/errors';

afterEach(() => {
  resetConfigCache();
  delete process.env.TEST_VALUE;
  delete process.env.STAGE;
});

describe('configuration', () => {
  it('fails loudly, naming the variable, when a required value is missing', () => {
    expect(() => getStringFromEnv('TEST_VALUE')).toThrow(
      new ConfigurationError('Missing required environment variable TEST_VALUE'),
    );
  });

  it('reads a value once', () => {
    process.env.TEST_VALUE = 'first';
    expect(getStringFromEnv('TEST_VALUE')).toBe('first');
    process.env.TEST_VALUE = 'second';
    expect(getStringFromEnv('TEST_VALUE')).toBe('first');
  });

  it('uses a default only when the variable is absent or empty', () => {
    expect(getNumberFromEnv('TEST_VALUE', { default: 3 })).toBe(3);
    resetConfigCache();
    process.env.TEST_VALUE = 'x';
    expect(() => getNumberFromEnv('TEST_VALUE')).toThrow(ConfigurationError);
  });

  it('accepts only known stages', () => {
    expect(stage()).toBe('local');
    resetConfigCache();
    process.env.STAGE = 'staging';
    expect(() => stage()).toThrow('STAGE must be local, dev or prod, not staging');
  });

  it('answers an optional setting with undefined when unset or empty, and reads it each time', () => {
    expect(getOptionalStringFromEnv('TEST_VALUE')).toBeUndefined();
    process.env.TEST_VALUE = '';
    expect(getOptionalStringFromEnv('TEST_VALUE')).toBeUndefined();
    process.env.TEST_VALUE = 'http://localhost:4000';
    expect(getOptionalStringFromEnv('TEST_VALUE')).toBe('http://localhost:4000');
    process.env.TEST_VALUE = 'http://localhost:4001';
    expect(getOptionalStringFromEnv('TEST_VALUE')).toBe('http://localhost:4001');
  });
});
