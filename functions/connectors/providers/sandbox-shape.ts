// What the sandbox's own providers share: RFC 7009 revocation, no extras, no production URLs.
import type { ProviderDefinition } from '../domain/provider-definition';

export const SANDBOX_SHAPE = {
  throttleReasons: [],
  authorizeParams: {},
  revocation: { style: 'rfc7009', clientAuth: true },
  defaults: {},
  extraSettings: {},
} satisfies Partial<ProviderDefinition>;
