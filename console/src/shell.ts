// The signed-in frame (header, navigation, status region) and the hash router that fills its main
// region. The routes below are the console's one route table: a hash pattern and the page it shows.
// Every page has its own hash (a deep link); a session that ends sends the user to sign in and back.
// A portal session (a link a customer's product opened, perhaps in a frame) sees only its granted
// sections, no organization administration, the organization's name and theme.
import type { Section, Session } from './api';
import { SESSION_PATH, api, currentSession, inPortal, setSession, shows } from './api';
import { announce, h, takeFlash } from './dom';
import { applicationsPage } from './pages/applications';
import { connectionPage } from './pages/connection-detail';
import { connectionsPage } from './pages/connections';
import { endpointPage } from './pages/endpoint-detail';
import { endpointsPage, newEndpointPage } from './pages/endpoints';
import { eventTypesPage } from './pages/event-types';
import { signInPage } from './pages/sign-in';

const HOME = '#/webhooks';

/**
 * `#/<section>[/<id>]`: the first route whose section matches and whose id rule holds (`new`: the id
 * is "new"; `some`: there is an id; none: any). Anything else shows the home page.
 */
const ROUTES: {
  section: string;
  id?: 'new' | 'some';
  /** The session section it belongs to; none: organization administration, never in a portal. */
  of?: Section;
  show: (id: string) => void;
}[] = [
  { section: 'webhooks', id: 'new', of: 'webhooks', show: () => newEndpointPage() },
  { section: 'webhooks', id: 'some', of: 'webhooks', show: (id) => endpointPage(id) },
  { section: 'webhooks', of: 'webhooks', show: () => endpointsPage() },
  { section: 'event-types', of: 'webhooks', show: () => eventTypesPage() },
  { section: 'connections', id: 'some', of: 'connections', show: (id) => connectionPage(id) },
  { section: 'connections', of: 'connections', show: () => connectionsPage() },
  { section: 'applications', show: () => applicationsPage() },
];

/** Whether the session may see a route: a portal its granted sections only, never administration. */
const allowed = (r: (typeof ROUTES)[number]): boolean => (r.of ? shows(r.of) : !inPortal());

/** The organization's theme as CSS variables and the appearance it asks for. */
function applyTheme(session: Session): void {
  const root = document.documentElement;
  if (session.theme.brandColor) {
    root.style.setProperty('--brand', session.theme.brandColor);
    root.style.setProperty('--header-bg', session.theme.brandColor);
  }
  if (session.theme.appearance !== 'system') root.dataset.appearance = session.theme.appearance;
}

/** The sign-in page; once signed in, the shell and the page the user was on (or asked for). */
export function showSignIn(notice?: string): void {
  // A portal has no sign-in of its own: the product that opened it opens a new link.
  if (location.pathname.startsWith(PORTAL_PAGE)) return portalEnded(notice);
  const returnTo = location.hash && location.hash !== '#main' ? location.hash : HOME;
  signInPage(() => {
    renderShell();
    go(returnTo);
  }, notice);
}

/** Shows `hash`: through hashchange when it changes, directly when it is already the address. */
function go(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

const PORTAL_PAGE = '/connectors/v1/session/portal/';

function portalEnded(notice?: string): void {
  document.title = 'Session ended';
  document.body.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'signin' },
      h(
        'div',
        { class: 'card' },
        h('h1', {}, 'This session has ended'),
        h('p', {}, notice ?? 'Open the page again from the application that brought you here.'),
      ),
    ),
  );
}

function renderShell(): void {
  const session = currentSession()!;
  applyTheme(session);
  const link = (hash: string, text: string) => h('a', { href: hash, 'data-nav': hash }, text);
  const signOut = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  // The sign-in page only once the server has ended the session: a reload (or a sign-in) before then
  // would still find the old cookie.
  signOut.addEventListener('click', () => {
    signOut.setAttribute('disabled', '');
    void api('POST', `${SESSION_PATH}/sign-out`)
      .catch(() => undefined)
      .finally(() => {
        setSession(undefined);
        history.replaceState(null, '', location.pathname);
        showSignIn(inPortal() ? 'You signed out.' : undefined);
      });
  });
  const brand = session.organizationName ?? 'Connector & Event Console';
  const logo = session.theme.logoUrl
    ? h('img', { src: session.theme.logoUrl, alt: '', class: 'logo' })
    : null;
  document.body.replaceChildren(
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h(
      'header',
      {},
      h('span', { class: 'brand' }, logo, brand),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        shows('webhooks') && link('#/webhooks', 'Webhooks'),
        shows('webhooks') && link('#/event-types', 'Event types'),
        shows('connections') && link('#/connections', 'Connections'),
        !inPortal() && link('#/applications', 'Applications'),
      ),
      h('span', { class: 'who' }, `${session.userId} · ${session.role}`, signOut),
    ),
    h(
      'div',
      { role: 'region', 'aria-label': 'Notifications', class: 'status-region' },
      h('div', { id: 'status', role: 'status', 'aria-live': 'polite' }),
    ),
    h('main', { id: 'main', tabindex: '-1' }),
  );
}

let shown = false;

export async function route(): Promise<void> {
  if (!currentSession()) return showSignIn();
  if (!document.querySelector('header nav')) renderShell();
  const hash = location.hash || currentSession()!.home || HOME;
  // The skip link is a fragment too: it moves focus, not the page.
  if (hash === '#main') return;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    if (hash.startsWith(a.dataset.nav ?? '')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  announce('');
  document.getElementById('status')!.className = '';
  const flashed = takeFlash();
  if (flashed) announce(flashed);
  const [, section, rawId] = hash.split('/');
  const id = rawId ? decodeURIComponent(rawId) : '';
  const match = ROUTES.filter(allowed).find(
    (r) => r.section === section && (r.id === 'new' ? id === 'new' : r.id === 'some' ? Boolean(id) : true),
  );
  if (match) match.show(id);
  else if (shows('webhooks')) endpointsPage();
  else connectionsPage();
  focusHeading(shown);
  shown = true;
}

/**
 * After navigation, focus moves to the page's heading (once it is drawn), so keyboard and screen-reader
 * users start at the new page rather than at the link they left. The first page of a visit is left alone
 * when something (the sign-in form) already holds focus.
 */
function focusHeading(navigation: boolean): void {
  const main = document.getElementById('main');
  if (!main) return;
  const place = (): boolean => {
    const heading = main.querySelector<HTMLElement>('h1');
    if (!heading) return false;
    heading.tabIndex = -1;
    if (navigation || document.activeElement === document.body || document.activeElement === null)
      heading.focus();
    return true;
  };
  if (place()) return;
  const observer = new MutationObserver(() => {
    if (place()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), 10_000);
}
