// Portal settings between the API's snake_case body and the record.
import type { PortalSettings } from '../domain/portal';

export interface PortalSettingsBody {
  frame_ancestors: string[];
  brand_color: string | null;
  logo_url: string | null;
  appearance: PortalSettings['appearance'];
}

export const settingsBody = (settings: PortalSettings): PortalSettingsBody => ({
  frame_ancestors: settings.frameAncestors,
  brand_color: settings.brandColor ?? null,
  logo_url: settings.logoUrl ?? null,
  appearance: settings.appearance,
});

export const settingsFrom = (body: PortalSettingsBody): PortalSettings => ({
  frameAncestors: [...new Set(body.frame_ancestors)],
  appearance: body.appearance,
  ...(body.brand_color ? { brandColor: body.brand_color.toLowerCase() } : {}),
  ...(body.logo_url ? { logoUrl: body.logo_url } : {}),
});
