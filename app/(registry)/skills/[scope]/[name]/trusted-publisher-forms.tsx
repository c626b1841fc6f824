'use client';
// The forms of the trusted publishers panel, bound to their server actions; each answer
// is shown beside its form.
import { useActionState } from 'react';
import { addTrustedPublisherAction, removeTrustedPublisherAction } from '../../../_actions/trusted-publishers';

const input = 'w-full rounded border border-zinc-400 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900';

function Answer({ state }: { state: { ok?: boolean; error?: string | null; message?: string | null } }) {
  if (state.error) return <p role="alert" className="text-xs text-red-700 dark:text-red-400">{state.error}</p>;
  if (state.ok && state.message) return <p role="status" className="text-xs text-emerald-800 dark:text-emerald-300">{state.message}</p>;
  return null;
}

export function AddTrustedPublisherForm({ scope, name, defaultIssuer }: { scope: string; name: string; defaultIssuer: string }) {
  const [state, action, pending] = useActionState(addTrustedPublisherAction, { ok: false, error: null });
  return (
    <form action={action} className="space-y-2" data-testid="trusted-publisher-add" aria-busy={pending || undefined}>
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="name" value={name} />
      <fieldset disabled={pending} className="space-y-2">
        <label className="block text-xs">
          Issuer
          <input name="issuer" required defaultValue={defaultIssuer} className={input} />
        </label>
        <label className="block text-xs">
          Repository <span className="text-zinc-700 dark:text-zinc-300">(owner/name)</span>
          <input name="repository" required placeholder="acme/skills" className={input} />
        </label>
        <label className="block text-xs">
          Workflow <span className="text-zinc-700 dark:text-zinc-300">(workflow_ref, optional)</span>
          <input name="workflow_ref" placeholder="acme/skills/.github/workflows/release.yml@refs/heads/main" className={input} />
        </label>
        <label className="block text-xs">
          Environment <span className="text-zinc-700 dark:text-zinc-300">(optional)</span>
          <input name="environment" className={input} />
        </label>
        <button type="submit" className="rounded bg-emerald-700 px-3 py-1 text-sm font-medium text-white hover:bg-emerald-800">
          Add trusted publisher
        </button>
      </fieldset>
      <Answer state={state} />
    </form>
  );
}

export function RemoveTrustedPublisherForm({ scope, name, id, label }: { scope: string; name: string; id: string; label: string }) {
  const [state, action, pending] = useActionState(removeTrustedPublisherAction, { ok: false, error: null });
  return (
    <form action={action} aria-busy={pending || undefined}>
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="name" value={name} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className="text-xs text-red-700 underline dark:text-red-400" aria-label={`Remove the trusted publisher ${label}`}>
        Remove
      </button>
      <Answer state={state} />
    </form>
  );
}
