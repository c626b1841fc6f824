'use client';
import { useActionState } from 'react';
import { signInWithEmail, type SignInState } from '../_actions/sign-in';

export function EmailSignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInWithEmail, { error: null });
  return (
    <form action={action} className="space-y-2">
      <input type="hidden" name="next" value={next} />
      <label htmlFor="signin-email" className="block text-sm text-zinc-600 dark:text-zinc-400">
        E-mail address
      </label>
      <div className="flex gap-2">
        <input
          id="signin-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? 'signin-email-error' : undefined}
          className="min-w-0 flex-1 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <button type="submit" disabled={pending} className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60">
          {pending ? 'Sending…' : 'Send link'}
        </button>
      </div>
      {state.error && (
        <p id="signin-email-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
    </form>
  );
}
