// A bounded label for a request path: fixed route segments stay, values (scopes, names,
// ids, versions) become `:p`, and past MAX_ROUTES distinct labels the rest are `other`,
// so a client sending random paths cannot grow the metrics without end.
const MAX_ROUTES = 200;
const seen = new Set<string>();

const STATIC_SEGMENT = /^(?:v\d{1,2}|[a-z][a-z-]{0,31}(?:\.json)?)$/;
// collections whose next segment names one member (a tool, run, token, team, version)
const COLLECTIONS = new Set(['tools', 'runs', 'tokens', 'teams', 'versions', 'invites', 'members', 'dist-tags', 'connections']);

export function routeLabel(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  const out: string[] = [];
  let member = false;
  for (const part of parts) {
    // the segment after `@scope` (the skill's name) or after a collection is a value whatever it looks like
    const isValue: boolean = member || part.startsWith('@') || !STATIC_SEGMENT.test(part);
    member = part.startsWith('@') || (!isValue && COLLECTIONS.has(part));
    out.push(isValue ? ':p' : part);
  }
  const label = '/' + out.join('/');
  if (seen.has(label)) return label;
  if (seen.size >= MAX_ROUTES) return 'other';
  seen.add(label);
  return label;
}
