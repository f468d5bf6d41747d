// The signed-in frame (header, navigation, status region) and the hash router that fills its main
// region. The routes below are the console's one route table: a hash pattern and the page it shows.
// Every page has its own hash (a deep link); a session that ends sends the user to sign in and back.
import { api, currentSession, setSession } from './api';
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
const ROUTES: { section: string; id?: 'new' | 'some'; show: (id: string) => void }[] = [
  { section: 'webhooks', id: 'new', show: () => newEndpointPage() },
  { section: 'webhooks', id: 'some', show: (id) => endpointPage(id) },
  { section: 'webhooks', show: () => endpointsPage() },
  { section: 'event-types', show: () => eventTypesPage() },
  { section: 'connections', id: 'some', show: (id) => connectionPage(id) },
  { section: 'connections', show: () => connectionsPage() },
  { section: 'applications', show: () => applicationsPage() },
];

/** The sign-in page; once signed in, the shell and the page the user was on (or asked for). */
export function showSignIn(notice?: string): void {
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

function renderShell(): void {
  const session = currentSession()!;
  const link = (hash: string, text: string) => h('a', { href: hash, 'data-nav': hash }, text);
  const signOut = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  signOut.addEventListener('click', () => {
    void api('POST', '/__dev/console/sign-out').catch(() => undefined);
    setSession(undefined);
    history.replaceState(null, '', location.pathname);
    showSignIn();
  });
  document.body.replaceChildren(
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h(
      'header',
      {},
      h('span', { class: 'brand' }, 'Connector & Event Console'),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        link('#/webhooks', 'Webhooks'),
        link('#/event-types', 'Event types'),
        link('#/connections', 'Connections'),
        link('#/applications', 'Applications'),
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
  const hash = location.hash || HOME;
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
  const match = ROUTES.find(
    (r) => r.section === section && (r.id === 'new' ? id === 'new' : r.id === 'some' ? Boolean(id) : true),
  );
  if (match) match.show(id);
  else endpointsPage();
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
