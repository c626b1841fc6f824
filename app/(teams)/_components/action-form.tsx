'use client';
// A form bound to one team server action: shows its error, its message, and a secret it
// returns once (an invitation link or an API token) with a copy button.
import { useActionState, useState } from 'react';
import type { TeamActionState as ActionState } from '@/lib/actions';

type Props = {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  children: React.ReactNode;
  className?: string;
  /** turns the returned secret into what is shown (e.g. an invitation URL) */
  secretPrefix?: string;
  testId?: string;
};

export function ActionForm({ action, children, className, secretPrefix = '', testId }: Props) {
  const [state, formAction, pending] = useActionState<ActionState, FormData>(action, { ok: false, error: null });
  const [copied, setCopied] = useState(false);
  const secret = state.secret ? `${secretPrefix}${state.secret}` : null;
  return (
    <form action={formAction} className={className} data-testid={testId} aria-busy={pending || undefined}>
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {state.error && (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      {state.message && !state.error && (
        <p role="status" className="basis-full text-sm text-emerald-800 dark:text-emerald-300">
          {state.message}
        </p>
      )}
      {secret && (
        <div className="flex basis-full items-center gap-2">
          <code data-testid="one-time-secret" className="min-w-0 flex-1 break-all rounded bg-zinc-100 px-2 py-1 text-xs dark:bg-zinc-900">
            {secret}
          </code>
          <button
            type="button"
            onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}
            className="rounded border border-zinc-300 px-2 py-1 text-xs dark:border-zinc-700"
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
    </form>
  );
}
