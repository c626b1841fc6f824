// The planner on a skill page and in the playground: per provider, what connecting would
// unlock ("Connect GitHub (repo) to unlock 3 tools") with the button that does it, and
// which gated tools this viewer has unlocked already.
import Link from 'next/link';
import { currentUser } from '@/lib/session';
import { providersFromEnv, type ProviderSpec } from '@/lib/auth';
import { heldTokenClaims, unlockLabel, unlockPlan } from '@/lib/teams';
import { serverContext } from '@/lib/server';
import type { ToolManifest } from '@/lib/skills';
import { connectProvider, disconnectProvider } from '../_actions/connections';

function configuredProviders(): ProviderSpec[] {
  try {
    return providersFromEnv();
  } catch {
    return [];
  }
}

/** `scope`: the skill's scope (a team's connection unlocks the team's own skills' tools). */
export async function UnlockPlanner({ tools, next, scope }: { tools: ToolManifest[]; next: string; scope?: string | null }) {
  const user = await currentUser().catch(() => null);
  const held = await heldTokenClaims(serverContext().db, user?.id ?? null);
  const plan = unlockPlan(tools, held, configuredProviders(), undefined, scope);
  // issuers whose unlocked tools the viewer's own tokens would not unlock: that is the
  // team's connection (lib/teams), which the team's admins disconnect on the workspace
  const own = unlockPlan(
    tools,
    held.filter((h) => h.onlyForScope === undefined),
    [],
    undefined,
    scope,
  );
  const nameOf = (provider: string) => configuredProviders().find((p) => p.id === provider)?.name ?? provider;
  const viaTeam = (issuer: string) => !tools.some((t) => own.unlocked.includes(t.name) && issuer in (t.inputTokens ?? {}));
  if (plan.locked.length === 0 && plan.unlocked.length === 0 && plan.lockedByTool.length === 0) return null;
  return (
    <section aria-label="Unlock tools" className="space-y-2" data-testid="unlock-planner">
      {plan.locked.map((g) => (
        <div
          key={g.provider}
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-900 dark:bg-amber-950/30"
          data-testid="unlock-group"
          data-provider={g.provider}
        >
          <div className="min-w-0">
            <p className="font-medium">{unlockLabel(g)}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Locked:{' '}
              {g.tools.map((t) => (
                <code key={t} className="mr-1">
                  {t}
                </code>
              ))}
            </p>
          </div>
          {g.configured ? (
            <form action={connectProvider}>
              <input type="hidden" name="provider" value={g.provider} />
              <input type="hidden" name="scopes" value={g.scopes.join(' ')} />
              <input type="hidden" name="next" value={next} />
              <button type="submit" className="rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800" data-testid="connect-button">
                {user ? (g.reconnect ? `Reconnect ${g.name}` : `Connect ${g.name}`) : `Sign in with ${g.name}`}
              </button>
            </form>
          ) : (
            <span className="text-xs text-zinc-600 dark:text-zinc-400">This server does not offer {g.name} connections.</span>
          )}
        </div>
      ))}
      {plan.lockedByTool.map((e) => (
        <p key={`${e.tool}:${e.issuer}`} className="text-sm text-zinc-600 dark:text-zinc-400">
          <code>{e.tool}</code> unlocks after a tool issues you <code>{e.issuer}</code> ({e.claims.join(', ')}).
        </p>
      ))}
      {plan.unlocked.length > 0 && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30"
          data-testid="unlocked-tools"
        >
          <p>
            Unlocked for you:{' '}
            {plan.unlocked.map((t) => (
              <code key={t} className="mr-1">
                {t}
              </code>
            ))}
          </p>
          <span className="flex gap-3 text-xs">
            {[...new Set(tools.flatMap((t) => (plan.unlocked.includes(t.name) ? Object.keys(t.inputTokens) : [])))]
              .filter((issuer) => issuer.startsWith('@oauth/'))
              .map((issuer) =>
                viaTeam(issuer) ? (
                  <span key={issuer} data-testid="unlocked-via-team">
                    {nameOf(issuer.slice('@oauth/'.length))} through @{scope}&apos;s connection
                  </span>
                ) : (
                  <form key={issuer} action={disconnectProvider}>
                    <input type="hidden" name="provider" value={issuer.slice('@oauth/'.length)} />
                    <input type="hidden" name="next" value={next} />
                    <button type="submit" className="underline" data-testid="disconnect-button">
                      Disconnect {nameOf(issuer.slice('@oauth/'.length))}
                    </button>
                  </form>
                ),
              )}
            <Link href="/settings#connections" className="underline">
              Connections
            </Link>
          </span>
        </div>
      )}
    </section>
  );
}
