// Permissions an API key can hold. Routes name the one they need; event types name the one to receive them.
export const PERMISSIONS = [
  'connectors:read',
  'connectors:write',
  'webhooks:read',
  'webhooks:write',
  'vaults:read',
  'vaults:write',
  'ocr:read',
  'transcription:read',
  'matters:read',
  'billing:read',
  'deployments:read',
  // Portal links and sessions (the console for a customer's own users, and operators' sign-in).
  'portal:read',
  'portal:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (value: string): value is Permission =>
  (PERMISSIONS as readonly string[]).includes(value);
