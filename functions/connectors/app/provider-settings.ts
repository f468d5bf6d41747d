// Organization-wide provider switches: a provider can be turned off without disconnecting anything.
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import type { ProviderId } from '../domain/providers';
import { PROVIDERS, PROVIDER_IDS, providerConfigured } from '../domain/providers';
import { paramSpecs } from '../domain/connection-params';
import type { ProviderSetting, ProviderView } from '../api/views';
import { ProviderSettings } from '../infra/repositories/provider-settings';

export function isProviderEnabled(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  provider: ProviderId,
): Promise<boolean> {
  return ProviderSettings.of(deps).isEnabled(organizationId, provider);
}

/** Every provider's switch for an organization (on unless turned off). */
export function enabledProviders(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
): Promise<Record<ProviderId, boolean>> {
  return ProviderSettings.of(deps).all(organizationId);
}

/**
 * Turns a provider off (or on again) for the whole organization; connections and credentials stay.
 * With `allowedHosts`, also the hosts the organization's connections may name (a provider with a host
 * param only): checked at each new connection, over the deployment's own list.
 */
export async function setProviderEnabled(
  deps: Pick<Deps, 'tables' | 'clock'>,
  organizationId: string,
  provider: ProviderId,
  enabled: boolean,
  allowedHosts?: string[] | null,
): Promise<ProviderSetting> {
  const updatedAt = deps.clock.now();
  const hosts = await ProviderSettings.of(deps).set(
    organizationId,
    provider,
    enabled,
    updatedAt,
    allowedHosts,
  );
  return {
    provider,
    enabled,
    ...(hosts.length ? { allowed_hosts: hosts } : {}),
    updated_at: isoTime(updatedAt),
  };
}

/** The providers this deployment offers, with the organization's switch of each. */
export async function listProviders(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
): Promise<ProviderView[]> {
  const enabled = await enabledProviders(deps, organizationId);
  // A real provider without a configured client is not offered at all (not merely turned off).
  return PROVIDER_IDS.filter(providerConfigured).map((id) => {
    const p = PROVIDERS[id];
    return {
      id,
      display_name: p.displayName,
      kind: p.kind,
      enabled: enabled[id],
      default_scope_tier: p.defaultTier,
      params: paramSpecs(p).map(([name, spec]) => ({
        name,
        kind: spec.kind,
        label: spec.label,
        description: spec.description,
        required: spec.default === undefined,
        ...(spec.default !== undefined ? { default: spec.default } : {}),
        ...(spec.kind === 'choice'
          ? {
              choices: Object.entries(spec.choices).map(([value, choice]) => ({
                value,
                label: choice.label,
              })),
            }
          : { example: spec.example }),
      })),
      scope_tiers: Object.entries(p.scopeTiers).map(([name, tier]) => ({
        name,
        description: tier.description,
        scopes: tier.scopes,
        required_scopes: tier.required,
      })),
    };
  });
}
