// The signed-in frame (header, navigation, status region) and the hash router that fills its main
// region. The routes below are the console's one route table: a hash pattern and the page it shows.
import { currentSession, setSession } from './api';
import { announce, h } from './dom';
import { applicationsPage } from './pages/applications';
import { connectionPage } from './pages/connection-detail';
import { connectionsPage } from './pages/connections';
import { endpointPage } from './pages/endpoint-detail';
import { endpointsPage, newEndpointPage } from './pages/endpoints';
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
  { section: 'connections', id: 'some', show: (id) => connectionPage(id) },
  { section: 'connections', show: () => connectionsPage() },
  { section: 'applications', show: () => applicationsPage() },
];

/** The sign-in page; once signed in, the shell and the home page. */
export function showSignIn(notice?: string): void {
  signInPage(() => {
    renderShell();
    location.hash = HOME;
    void route();
  }, notice);
}

function renderShell(): void {
  const session = currentSession()!;
  const link = (hash: string, text: string) => h('a', { href: hash, 'data-nav': hash }, text);
  const signOut = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  signOut.addEventListener('click', () => {
    setSession(undefined);
    location.hash = '';
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
        link('#/connections', 'Connections'),
        link('#/applications', 'Applications'),
      ),
      h('span', { class: 'who' }, `${session.userId} · ${session.role}`, signOut),
    ),
    h('div', { id: 'status', role: 'status', 'aria-live': 'polite' }),
    h('main', { id: 'main', tabindex: '-1' }),
  );
}

export async function route(): Promise<void> {
  if (!currentSession()) return showSignIn();
  const hash = location.hash || HOME;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    if (hash.startsWith(a.dataset.nav ?? '')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  announce('');
  document.getElementById('status')!.className = '';
  const [, section, rawId] = hash.split('/');
  const id = rawId ? decodeURIComponent(rawId) : '';
  const match = ROUTES.find(
    (r) => r.section === section && (r.id === 'new' ? id === 'new' : r.id === 'some' ? Boolean(id) : true),
  );
  if (match) match.show(id);
  else endpointsPage();
}
