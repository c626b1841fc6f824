'use client';
import { useActionState } from 'react';
import { answerCliLogin, type CliLoginState } from '../_actions/cli-login';

export function CliLoginForm({ code, scopes }: { code: string; scopes: readonly string[] }) {
  const [state, action, pending] = useActionState<CliLoginState, FormData>(answerCliLogin, { error: null });
  if (state.done === 'approved') {
    return (
      <p className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30" data-testid="cli-login-done">
        Done: the CLI is signed in. You can close this tab.
      </p>
    );
  }
  if (state.done === 'denied')
    return (
      <p className="text-sm" data-testid="cli-login-done">
        Refused: the CLI was not signed in.
      </p>
    );
  return (
    <form action={action} className="space-y-4">
      <label className="grid gap-1 text-sm">
        Code from the terminal
        <input
          name="code"
          required
          defaultValue={code}
          autoComplete="off"
          placeholder="ABCD-EFGH"
          className="rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-lg tracking-widest uppercase dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 text-sm">Scopes</legend>
        {scopes.map((s) => (
          <label key={s} className="flex items-center gap-1">
            <input type="checkbox" name="scope" value={s} defaultChecked /> {s}
          </label>
        ))}
      </fieldset>
      {state.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      <div className="flex gap-3">
        <button
          type="submit"
          name="answer"
          value="approve"
          disabled={pending}
          className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
        >
          Sign in the CLI
        </button>
        <button type="submit" name="answer" value="deny" disabled={pending} className="rounded-lg border border-zinc-300 px-4 py-2 text-sm dark:border-zinc-700">
          Refuse
        </button>
      </div>
    </form>
  );
}
