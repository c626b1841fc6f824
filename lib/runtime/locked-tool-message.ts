// What to tell someone (or their agent) who called a tool they cannot use yet: which token
// it needs and what unlocks it, from the planner's answer. "not available" says nothing
// a person can act on; "needs @oauth/github (repo): connect GitHub" does.
import type { Plan } from './types';

export function lockedToolMessage(plan: Plan): string | null {
  if (plan.usable || plan.missing.length === 0) return null;
  const parts = plan.unlocks.map(({ issuer, claims, options }) => {
    const expired = plan.missing.some((m) => m.issuer === issuer && m.reason === 'expired');
    const need = `${issuer}${claims.length ? ` (${claims.join(', ')})` : ''}${expired ? ', which has expired' : ''}`;
    const ways = options.map((o) =>
      o.kind === 'oauth' ? `connect ${o.label.replace(/^log in with /, '')} (the skill's page or Settings → Connections)` : `${o.label}${o.usable ? '' : ' — itself locked'}`,
    );
    return ways.length ? `${need}; to unlock it: ${ways.join(' or ')}` : `${need}; nothing on this server issues it`;
  });
  return `tool "${plan.ref.split('/').pop()}" is locked: it needs ${parts.join('; and ')}`;
}
