// A connection's lifecycle states (spec: States and transitions).
export const CONNECTION_STATUSES = ['pending', 'healthy', 'reauth_required', 'revoked', 'throttled'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
