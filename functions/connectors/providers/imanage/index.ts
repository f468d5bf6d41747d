// The imanage provider module: its definition, and its client loaded on first use.
import { providerModule } from '../module';
import { definition } from './definition';

export const imanage = providerModule({
  definition,
  client: async () => (await import('./client')).client,
});
