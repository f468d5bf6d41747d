import { publicRoute } from '../../../platform/http';
import { showConnectLinkRoute } from '../routes';
import { describeConnectLink } from '../../app/connect-flow';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GET {connect_url}: a page whose button POSTs back to the same URL. Opening it spends nothing, so a
 * chat app's link preview cannot use up the link; framing is refused so the button cannot be clickjacked.
 */
export const create = publicRoute(showConnectLinkRoute, async ({ path, deps }) => {
  const { providerName } = await describeConnectLink(deps, path.token);
  const action = `./${encodeURIComponent(path.token)}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connect ${escapeHtml(providerName)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<main><h1>Connect your ${escapeHtml(providerName)} account</h1>
<p>You will be sent to ${escapeHtml(providerName)} to approve access.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Continue</button></form></main>
</body></html>`;
  return {
    status: 200,
    body: html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    },
  };
});
