// Usernames and team slugs share one namespace, the scope `@<name>`. Two rules beyond the
// name's shape (docs/security.md, "Names and scopes"):
// - reserved words (the site's own pages and roles, and names that would pass for the
//   registry itself) are nobody's, nor is a look-alike of one;
// - a name whose skeleton equals an existing scope's is refused: `@examp1e` is not
//   `@example` to a machine, and is to a reader.
// The skeleton folds what reads alike in a monospace or sans font: case, `0`/`o`,
// `1`/`l`/`i`, `rn`/`m`, `vv`/`w`, and drops `-`, `_` and `.` (as npm's "too similar" rule
// drops punctuation). Kept small on purpose: a wider table (`5`/`s`, `cl`/`d`) refuses
// honest names for little gain. find-lookalike-scope.ts computes the same in SQL.
import 'server-only';

export const RESERVED_SCOPE_NAMES: ReadonlySet<string> = new Set([
  // the site, its roles and its makers
  'skillyard',
  'official',
  'registry',
  'system',
  'admin',
  'administrator',
  'root',
  'staff',
  'moderator',
  'support',
  'security',
  'help',
  'abuse',
  'legal',
  'privacy',
  'terms',
  'status',
  'billing',
  'owner',
  'anonymous',
  'nobody',
  'null',
  'undefined',
  'everyone',
  'bot',
  'npm',
  'mcp',
  'oauth',
  'www',
  'mail',
  'noreply',
  'no-reply',
  'postmaster',
  'webmaster',
  'hostmaster',
  // pages and path words (a team of that name would have a page nobody can reach)
  'api',
  'app',
  'new',
  'join',
  'me',
  'team',
  'teams',
  'user',
  'users',
  'settings',
  'account',
  'login',
  'logout',
  'signin',
  'signout',
  'signup',
  'welcome',
  'playground',
  'publish',
  'skills',
  'skill',
  'runs',
  'run',
  'tools',
  'search',
  'docs',
  'about',
  'health',
  'static',
  'assets',
  'invites',
  'tokens',
  'cli',
]);

/** The name as it reads: look-alike characters folded, separators dropped. */
export function scopeSkeleton(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_.]/g, '')
    .replace(/[01i]/g, (c) => (c === '0' ? 'o' : 'l'))
    .replaceAll('rn', 'm')
    .replaceAll('vv', 'w');
}

const RESERVED_SKELETONS = new Map([...RESERVED_SCOPE_NAMES].map((n) => [scopeSkeleton(n), n]));

/** The reserved word `name` is or passes for, or null. */
export function reservedScopeName(name: string): string | null {
  if (RESERVED_SCOPE_NAMES.has(name)) return name;
  return RESERVED_SKELETONS.get(scopeSkeleton(name)) ?? null;
}

/** Why a name that passes for an existing scope is refused (usernames and team slugs alike). */
export function lookalikeMessage(name: string, twin: string): string {
  return `@${name} reads like @${twin}, which exists; choose a name that differs by more than look-alike characters (0/o, 1/l/i, rn/m, vv/w, - _ .).`;
}
