// The console's entry: a hash-routed single page over the public API (shell.ts routes, pages/ draw).
// Owners and admins see the write controls; members read (and the API refuses their writes
// regardless of what the page shows).
import { route, showSignIn } from './shell';

window.addEventListener('hashchange', () => void route());
window.addEventListener('console:session-ended', () => showSignIn('Your session has ended: sign in again.'));
// Every start is signed out: the session lives in memory only.
void route();
