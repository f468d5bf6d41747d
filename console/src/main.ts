// The console's entry: a hash-routed single page over the public API (shell.ts routes, pages/ draw).
// Owners and admins see the write controls; members read (and the API refuses their writes
// regardless of what the page shows).
import { restoreSession } from './api';
import { route, showSignIn } from './shell';

window.addEventListener('hashchange', () => void route());
window.addEventListener('console:session-ended', () => showSignIn('Your session has ended: sign in again.'));
// A reload or a new tab keeps the session the cookie holds, and the page its address names.
void restoreSession().then(() => route());
