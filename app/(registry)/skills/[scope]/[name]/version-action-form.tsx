'use client';
// One version control (yank, deprecate, tag, ...) as a form bound to manageVersionAction:
// the skill and version ride along as hidden fields; the answer is shown beside it.
import { useActionState } from 'react';
import { manageVersionAction } from '../../../_actions/manage-version';

type Props = { op: string; scope: string; name: string; version?: string; tag?: string; children: React.ReactNode; testId?: string };

export function VersionActionForm({ op, scope, name, version, tag, children, testId }: Props) {
  const [state, action, pending] = useActionState(manageVersionAction, { ok: false, error: null });
  return (
    <form action={action} className="flex flex-wrap items-end gap-2" data-testid={testId} aria-busy={pending || undefined}>
      <input type="hidden" name="op" value={op} />
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="name" value={name} />
      {version && <input type="hidden" name="version" value={version} />}
      {tag && <input type="hidden" name="tag" value={tag} />}
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {state.error && (
        <p role="alert" className="basis-full text-xs text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      {state.ok && state.message && (
        <p role="status" className="basis-full text-xs text-emerald-800 dark:text-emerald-300">
          {state.message}
        </p>
      )}
    </form>
  );
}
