// The development identity provider's sign-in: a role picked, a session minted into an HttpOnly cookie.
import { api, restoreSession } from '../api';
import { h } from '../dom';
import { errorState } from '../widgets';

/** The sign-in page; `onSignedIn` runs once the session is held (the shell takes over from there). */
export function signInPage(onSignedIn: () => void, notice?: string): void {
  document.title = 'Sign in — Console';
  const role = h(
    'select',
    { id: 'role', name: 'role' },
    h('option', { value: 'owner' }, 'Owner'),
    h('option', { value: 'admin' }, 'Admin'),
    h('option', { value: 'member' }, 'Member'),
  );
  const result = h('div', {});
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to the console'),
    h(
      'p',
      {},
      'Development identity provider: signs you in to the development organization with the role you pick.',
    ),
    h(
      'p',
      {},
      'On a deployment, open a sign-in link instead: npm run admin -- portal-link (docs/deploy.md, step 8).',
    ),
    notice ? h('p', { class: 'notice notice-bad', role: 'alert' }, notice) : null,
    h('label', { for: 'role' }, 'Role'),
    role,
    h('button', { type: 'submit' }, 'Sign in'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      try {
        await api('POST', '/__dev/console/sign-in', { role: role.value });
        if (!(await restoreSession())) throw new Error('The session could not be read');
        onSignedIn();
      } catch (error) {
        result.replaceChildren(errorState(error));
      }
    })();
  });
  document.body.replaceChildren(h('main', { id: 'main', class: 'signin' }, form));
  role.focus();
}
