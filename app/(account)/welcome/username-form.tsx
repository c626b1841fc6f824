'use client';
import { useActionState } from 'react';
import { chooseUsernameAction, type UsernameState } from '../_actions/username';

export function UsernameForm({ next, suggestion }: { next: string; suggestion: string }) {
  const [state, action, pending] = useActionState<UsernameState, FormData>(chooseUsernameAction, { error: null });
  return (
    <form action={action} className="space-y-3">
      <input type="hidden" name="next" value={next} />
      <label htmlFor="username" className="block text-sm font-medium">
        Username
      </label>
      <div className="flex items-center rounded-lg border border-zinc-300 bg-white px-3 dark:border-zinc-700 dark:bg-zinc-900">
        <span className="text-zinc-500">@</span>
        <input
          id="username"
          name="username"
          required
          minLength={2}
          maxLength={39}
          pattern="[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,38}"
          defaultValue={suggestion}
          autoComplete="username"
          aria-invalid={state.error ? true : undefined}
          aria-describedby="username-help"
          className="min-w-0 flex-1 bg-transparent py-2 pl-0.5 text-sm outline-none"
        />
      </div>
      <p id="username-help" className="text-xs text-zinc-500">
        2–39 lowercase letters, digits or single hyphens.
      </p>
      {state.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60">
        {pending ? 'Saving…' : 'Continue'}
      </button>
    </form>
  );
}
