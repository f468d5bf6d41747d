// The fakes of the real providers, one directory each (./fake.ts says what a fake is).
import { boxFake } from './box';
import { clioFake } from './clio';
import { dropboxFake } from './dropbox';
import type { ProviderFake } from './fake';
import { googleDriveFake } from './google_drive';
import { imanageFake } from './imanage';
import { onedriveFake } from './onedrive';

export const PROVIDER_FAKES: readonly ProviderFake[] = [
  clioFake,
  googleDriveFake,
  onedriveFake,
  dropboxFake,
  boxFake,
  imanageFake,
];

export type { ProviderFake } from './fake';

/** The account id a provider reports for a sandbox account (Dropbox's `dbid:` ids, Clio's integers). */
export const externalAccountId = (provider: string, account: string): string =>
  PROVIDER_FAKES.find((fake) => fake.id === provider)?.accountId?.(account) ?? account;
