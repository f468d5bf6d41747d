// The page a sign-in link opens: the link's token is in the fragment (no server, log or Referer sees
// it); it is posted once to the exchange, which sets the session cookie and says where to go. A link
// used already, expired or not a link gets the exchange's reason on a page of its own.
import { ApiFailure, api } from './api';
import { h } from './dom';

const token = decodeURIComponent(location.hash.slice(1));
// Out of the address bar and the history before anything else happens.
history.replaceState(null, '', location.pathname);

function refused(message: string): void {
  document.title = 'This link cannot be used';
  document.body.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'signin' },
      h(
        'div',
        { class: 'card' },
        h('h1', {}, 'This link cannot be used'),
        h('p', { role: 'alert', class: 'notice notice-bad' }, `${message}.`),
      ),
    ),
  );
}

void (async () => {
  try {
    const { redirect } = await api<{ redirect: string }>('POST', '/connectors/v1/session/exchange', {
      token,
    });
    location.replace(redirect);
  } catch (error) {
    refused(error instanceof ApiFailure ? error.message : 'The link could not be opened');
  }
})();
