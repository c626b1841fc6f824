import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { API_TOKEN_SCOPES, listApiTokens, listModelKeys, MODEL_KEY_PROVIDERS, listConnections, providersFromEnv, type ProviderSpec } from '@/lib/auth';
import { currentUser } from '@/lib/session';
import { serverContext } from '@/lib/server';
import { connectProvider, disconnectProvider } from '../_actions/connections';
import { deleteModelKeyAction, revokeApiTokenAction } from '../_actions/settings';
import { signOutEverywhere } from '../_actions/sign-in';
import { CreateTokenForm, DeleteAccountForm, ModelKeyForm } from './forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Settings' };

const when = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '—');
const section = 'space-y-3 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800';
const small = 'rounded-lg border border-zinc-300 px-2.5 py-1 text-xs font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900';

export default async function SettingsPage() {
  const user = await currentUser();
  if (!user) redirect('/signin?next=/settings');
  let providers: ProviderSpec[] = [];
  try {
    providers = providersFromEnv();
  } catch {
    providers = [];
  }
  const [connections, tokens, keys] = await Promise.all([
    listConnections(serverContext().db, user.id),
    listApiTokens(serverContext().db, user.id),
    listModelKeys(serverContext().db, user.id),
  ]);
  const now = new Date();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Signed in as {user.handle ? <strong>@{user.handle}</strong> : (user.name ?? user.email)}
          {user.email ? ` (${user.email})` : ''}.
        </p>
      </header>

      <section id="connections" aria-labelledby="connections-heading" className={section}>
        <h2 id="connections-heading" className="font-semibold">
          Connections
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          A connection holds the provider&apos;s token (sealed) as <code>@oauth/&lt;provider&gt;</code>; the tools that need it unlock for you alone. Disconnecting deletes it.
        </p>
        <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {providers.map((p) => {
            const c = connections.find((x) => x.provider === p.id);
            return (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="connection" data-provider={p.id}>
                <div>
                  <span className="font-medium">{p.name}</span>{' '}
                  {c ? (
                    <span className="text-zinc-600 dark:text-zinc-400">
                      connected · {c.claims.filter((s) => s !== 'account').join(', ') || 'no extra scopes'} ·{' '}
                      {c.expiresAt && c.expiresAt <= now && !c.refreshable ? 'expired' : c.refreshable ? 'refreshed when needed' : `expires ${when(c.expiresAt)}`}
                    </span>
                  ) : (
                    <span className="text-zinc-500">not connected</span>
                  )}
                </div>
                <form action={c ? disconnectProvider : connectProvider}>
                  <input type="hidden" name="provider" value={p.id} />
                  <input type="hidden" name="next" value="/settings" />
                  <button type="submit" className={small}>
                    {c ? `Disconnect ${p.name}` : `Connect ${p.name}`}
                  </button>
                </form>
              </li>
            );
          })}
          {connections
            .filter((c) => !providers.some((p) => p.id === c.provider))
            .map((c) => (
              <li key={c.provider} className="flex items-center justify-between py-2">
                <span>
                  {c.provider} <span className="text-zinc-500">(no longer offered by this server)</span>
                </span>
                <form action={disconnectProvider}>
                  <input type="hidden" name="provider" value={c.provider} />
                  <button type="submit" className={small}>
                    Disconnect
                  </button>
                </form>
              </li>
            ))}
        </ul>
        {providers.length === 0 && <p className="text-sm text-zinc-500">This server offers no OAuth providers (README: “Sign-in and connections”).</p>}
      </section>

      <section aria-labelledby="tokens-heading" className={section}>
        <h2 id="tokens-heading" className="font-semibold">
          API tokens
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          For the CLI (<code>skillyard login</code> makes one for you) and other clients: <code>Authorization: Bearer sy_…</code>.
        </p>
        <CreateTokenForm scopes={API_TOKEN_SCOPES} />
        {tokens.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="token-table">
              <thead className="text-xs text-zinc-500">
                <tr>
                  <th className="py-1 pr-3 font-normal">Name</th>
                  <th className="py-1 pr-3 font-normal">Scopes</th>
                  <th className="py-1 pr-3 font-normal">Last used</th>
                  <th className="py-1 pr-3 font-normal">Expires</th>
                  <th className="py-1 font-normal">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id} className="border-t border-zinc-200 dark:border-zinc-800">
                    <td className="py-2 pr-3">
                      {t.name} <code className="text-xs text-zinc-500">sy_{t.prefix}_…</code>
                    </td>
                    <td className="py-2 pr-3">{t.scopes.join(', ')}</td>
                    <td className="py-2 pr-3">{when(t.lastUsedAt)}</td>
                    <td className="py-2 pr-3">{t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt <= now ? 'expired' : t.expiresAt ? when(t.expiresAt) : 'never'}</td>
                    <td className="py-2 text-right">
                      {!t.revokedAt && (
                        <form action={revokeApiTokenAction}>
                          <input type="hidden" name="id" value={t.id} />
                          <button type="submit" className={small}>
                            Revoke
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="keys-heading" className={section}>
        <h2 id="keys-heading" className="font-semibold">
          Model keys
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Your own provider keys, sealed at rest and used only for your runs. They are shown back as their last four characters.
        </p>
        {keys.length > 0 && (
          <ul className="text-sm" data-testid="model-keys">
            {keys.map((k) => (
              <li key={k.provider} className="flex items-center justify-between py-1">
                <span>
                  {k.provider} <code>…{k.last4}</code> <span className="text-zinc-500">saved {when(k.createdAt)}</span>
                </span>
                <form action={deleteModelKeyAction}>
                  <input type="hidden" name="provider" value={k.provider} />
                  <button type="submit" className={small}>
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <ModelKeyForm providers={MODEL_KEY_PROVIDERS} />
      </section>

      <section aria-labelledby="sessions-heading" className={section}>
        <h2 id="sessions-heading" className="font-semibold">
          Sessions
        </h2>
        <form action={signOutEverywhere}>
          <button type="submit" className={small}>
            Sign out everywhere
          </button>
        </form>
      </section>

      <section aria-labelledby="delete-heading" className="space-y-3 rounded-xl border border-red-300 p-5 dark:border-red-900">
        <h2 id="delete-heading" className="font-semibold text-red-800 dark:text-red-300">
          Delete account
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Your runs, tokens, connections and keys are deleted. The versions you published stay, as on npm, and your scope stays reserved. A team always keeps an owner: while you
          are the last owner of a team, make another member an owner or delete the team first.
        </p>
        <DeleteAccountForm confirmWith={user.handle ?? user.email ?? 'delete my account'} />
      </section>
    </div>
  );
}
