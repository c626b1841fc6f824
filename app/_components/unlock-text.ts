// What unlocks a gated tool, in words: one line for its card, the playground's script
// and the run's notice ("Connect Test IdP with api:read", "Run open-notebook first: it
// gives you a @skillyard/notebook token"). Shared by server and client components.
import type { ToolUnlock } from './tool-availability';

export function unlockText(t: { unlocks: ToolUnlock[] }): string {
  return t.unlocks
    .map((u) => {
      const scopes = u.claims.filter((c) => c !== 'account');
      if (u.options.length === 0) return `a ${u.issuer} token${scopes.length ? ` (${scopes.join(', ')})` : ''}, which nothing on this server issues`;
      return u.options
        .map((o) =>
          o.kind === 'oauth'
            ? `connect ${o.label}${scopes.length ? ` with ${scopes.join(', ')}` : ''}`
            : `run ${o.tool} first (it gives you a ${u.issuer} token${o.signedOut ? '; signed out, it lasts only for the rest of one playground run, so sign in to keep it' : ''})`,
        )
        .join(' or ');
    })
    .join('; and ');
}
