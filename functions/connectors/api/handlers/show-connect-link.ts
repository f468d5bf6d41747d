import { publicRoute } from '../../../platform/http';
import { showConnectLinkRoute } from '../routes';
import { describeConnectLink } from '../../app/connect-flow';
import type { ConnectionParamSpec } from '../../domain/provider-definition';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A form field for a param the customer's server did not give: a choice's values, or a host name. */
function paramField(name: string, spec: ConnectionParamSpec): string {
  const id = `param-${name}`;
  const label = `<label for="${escapeHtml(id)}">${escapeHtml(spec.label)}</label>`;
  const help = `<p id="${escapeHtml(id)}-help" style="margin:.25rem 0 1rem;color:#555">${escapeHtml(spec.description)}</p>`;
  if (spec.kind === 'choice') {
    const options = Object.entries(spec.choices)
      .map(
        ([value, choice]) =>
          `<option value="${escapeHtml(value)}"${value === spec.default ? ' selected' : ''}>${escapeHtml(choice.label)}</option>`,
      )
      .join('');
    return `${label}<br><select id="${escapeHtml(id)}" name="${escapeHtml(name)}" aria-describedby="${escapeHtml(id)}-help" required>${options}</select>${help}`;
  }
  const value = spec.default ? ` value="${escapeHtml(spec.default)}"` : '';
  return `${label}<br><input id="${escapeHtml(id)}" name="${escapeHtml(name)}" type="text" inputmode="url" autocomplete="off" spellcheck="false" placeholder="${escapeHtml(spec.example)}"${value} aria-describedby="${escapeHtml(id)}-help" required>${help}`;
}

/**
 * GET {connect_url}: a page whose button POSTs back to the same URL. Opening it spends nothing, so a
 * chat app's link preview cannot use up the link; framing is refused so the button cannot be clickjacked.
 */
export const create = publicRoute(showConnectLinkRoute, async ({ path, deps }) => {
  const { providerName, ask } = await describeConnectLink(deps, path.token);
  const fields = ask.map(([name, spec]) => paramField(name, spec)).join('\n');
  const action = `./${encodeURIComponent(path.token)}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connect ${escapeHtml(providerName)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<main><h1>Connect your ${escapeHtml(providerName)} account</h1>
<p>You will be sent to ${escapeHtml(providerName)} to approve access.</p>
<form method="post" action="${escapeHtml(action)}">${fields}<button type="submit">Continue</button></form></main>
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
