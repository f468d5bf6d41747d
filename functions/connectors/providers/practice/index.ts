// The practice provider module: its definition, and its client loaded on first use.
import { providerModule } from '../module';
import { definition } from './definition';

export const practice = providerModule({
  definition,
  sandbox: true,
  client: async () => (await import('./client')).client,
});
