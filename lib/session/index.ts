// lib/session: the signed-in session of a request: the next-auth instance (auth.ts, with
// its route's config) and the current user. Only code that runs inside Next.js imports it
// (app/, the action chain, the auth route): next-auth does not load under plain Node.
import 'server-only';
export { authConfig, auth, signIn, signOut, type AuthHooks } from './auth';
export { currentUser, type CurrentUser } from './current-user';
