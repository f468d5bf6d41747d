// Secrets port in the local runtime: each secret setting is an environment variable of its name
// (`npm start` sets the sandbox provider's client secrets and a random state key at start).
import { getStringFromEnv } from '../../platform/config';
import type { Secrets } from '../../platform/ports';

export class EnvSecrets implements Secrets {
  async get(name: string): Promise<string> {
    return getStringFromEnv(name);
  }
}
