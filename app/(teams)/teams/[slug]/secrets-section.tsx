import { deleteSecretAction, setSecretAction } from '../../_actions/secrets';
import { ActionForm } from '../../_components/action-form';
import { button, input, muted, quiet, section } from '../../_components/styles';

export function SecretsSection({ slug, admin, secrets }: { slug: string; admin: boolean; secrets: Array<{ name: string; createdAt: Date }> }) {
  return (
    <section className={section} aria-labelledby="secrets-h">
      <h2 id="secrets-h" className="font-semibold">
        Secrets
      </h2>
      <p className={muted}>
        What the <code>environment</code> capability of this team&apos;s skills reads when a member runs them. Values are sealed and never shown again.
      </p>
      {secrets.length > 0 && (
        <ul className="space-y-1 text-sm" data-testid="team-secrets">
          {secrets.map((s) => (
            <li key={s.name} className="flex flex-wrap items-center gap-2">
              <code className="flex-1">{s.name}</code>
              {admin && (
                <ActionForm action={deleteSecretAction}>
                  <input type="hidden" name="team" value={slug} />
                  <input type="hidden" name="name" value={s.name} />
                  <button type="submit" className={quiet} aria-label={`Delete ${s.name}`}>
                    Delete
                  </button>
                </ActionForm>
              )}
            </li>
          ))}
        </ul>
      )}
      {admin && (
        <ActionForm action={setSecretAction} className="flex flex-wrap items-end gap-2" testId="secret-form">
          <input type="hidden" name="team" value={slug} />
          <label className="sr-only" htmlFor="secret-name">
            Secret name
          </label>
          <input id="secret-name" name="name" required pattern="[A-Z_][A-Z0-9_]{0,63}" placeholder="API_KEY" className={`${input} w-40`} />
          <label className="sr-only" htmlFor="secret-value">
            Secret value
          </label>
          <input id="secret-value" name="value" type="password" required autoComplete="off" placeholder="value" className={`${input} min-w-[10rem] flex-1`} />
          <button type="submit" className={button}>
            Save secret
          </button>
        </ActionForm>
      )}
    </section>
  );
}
