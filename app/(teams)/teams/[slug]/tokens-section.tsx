import { createTeamTokenAction, revokeTeamTokenAction } from '../../_actions/secrets';
import { ActionForm } from '../../_components/action-form';
import { button, input, muted, quiet, section } from '../../_components/styles';

type Token = { id: string; name: string; prefix: string; scopes: string[]; lastUsedAt: Date | null; expiresAt: Date | null };
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : 'never');

export function TokensSection({ slug, tokens }: { slug: string; tokens: Token[] }) {
  return (
    <section className={section} aria-labelledby="tokens-h">
      <h2 id="tokens-h" className="font-semibold">
        Team API tokens
      </h2>
      <p className={muted}>A team token acts as the team: it publishes into @{slug} and sees its private skills, within its scopes.</p>
      {tokens.length > 0 && (
        <ul className="space-y-1 text-sm" data-testid="team-tokens">
          {tokens.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-2">
              <span className="flex-1">
                {t.name} <code className="text-xs">sy_{t.prefix}_…</code> · {t.scopes.join(', ')} · last used {day(t.lastUsedAt)} · expires {day(t.expiresAt)}
              </span>
              <ActionForm action={revokeTeamTokenAction}>
                <input type="hidden" name="team" value={slug} />
                <input type="hidden" name="token" value={t.id} />
                <button type="submit" className={quiet} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </button>
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      <ActionForm action={createTeamTokenAction} className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="team" value={slug} />
        <label className="sr-only" htmlFor="token-name">
          Token name
        </label>
        <input id="token-name" name="name" required maxLength={100} placeholder="ci" className={`${input} w-32`} />
        {(['publish', 'invoke', 'runs'] as const).map((s) => (
          <label key={s} className="flex items-center gap-1 text-sm">
            <input type="checkbox" name="scopes" value={s} defaultChecked={s === 'publish'} /> {s}
          </label>
        ))}
        <label className="flex items-center gap-1 text-sm">
          expires in
          <select name="days" defaultValue="90" className={input}>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">a year</option>
            <option value="0">never</option>
          </select>
        </label>
        <button type="submit" className={button}>
          Create token
        </button>
      </ActionForm>
    </section>
  );
}
