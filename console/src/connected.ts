// The connect flow's landing page (/console/connected?connection_id=… or ?error=…): says how the flow
// ended, in words, and tells the console tab that opened it (same origin, BroadcastChannel), which then
// reads its connections again.

export const CONNECT_CHANNEL = 'console-connect';

const ERRORS: Record<string, string> = {
  access_denied: 'Access was declined at the provider, so nothing was connected.',
  provider_error: 'The provider reported an error and nothing was connected.',
  missing_code: 'The provider sent no authorization back, so nothing was connected.',
  connector_scope_not_enabled: 'This provider is switched off for your organization.',
  oauth_flow_inactive:
    'This connection flow is no longer active (already used, cancelled or expired). Start a new connection from the console.',
  oauth_exchange_failed: 'The provider did not accept the authorization. Try connecting again.',
  issuer_mismatch: 'The answer did not come from the expected provider, so it was refused.',
};

const query = new URLSearchParams(location.search);
const error = query.get('error');
const connectionId = query.get('connection_id');
const title = document.getElementById('title')!;
const detail = document.getElementById('detail')!;
if (error) {
  title.textContent = 'The connection was not made';
  detail.textContent = ERRORS[error] ?? 'The connection flow ended with an error; nothing was connected.';
  detail.className = 'notice notice-bad';
} else if (connectionId) {
  title.textContent = 'Connected';
  detail.textContent = 'The account is connected. You can close this tab: the console shows it already.';
  detail.className = 'notice notice-ok';
}
document.title = `${title.textContent} — Console`;
try {
  new BroadcastChannel(CONNECT_CHANNEL).postMessage({ connectionId, error });
} catch {
  // No channel (an old browser): the console's list refreshes on its own anyway.
}
