'use client';
// A skill's star: signed-in users press it (a server action; the count comes back from
// the database), anonymous visitors get a prompt to sign in instead.
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { starSkillAction } from '../(registry)/_actions/star';

type Props = { scope: string; name: string; stars: number; starred: boolean; signedIn: boolean; next: string; compact?: boolean };

export function StarButton({ scope, name, stars: initialStars, starred: initialStarred, signedIn, next, compact }: Props) {
  const [state, setState] = useState({ stars: initialStars, starred: initialStarred });
  const [prompt, setPrompt] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const ref = `@${scope}/${name}`;

  function toggle() {
    if (!signedIn) {
      setPrompt((p) => !p);
      return;
    }
    const want = !state.starred;
    setError(null);
    start(async () => {
      const res = await starSkillAction({ scope, name, starred: want }).catch(() => null);
      if (res?.ok) setState({ stars: res.stars ?? state.stars, starred: res.starred ?? want });
      else setError(res?.error ?? 'Could not reach the server; try again.');
    });
  }

  return (
    <span className="relative z-10 inline-flex flex-wrap items-center gap-2" data-testid="star">
      <button
        type="button"
        onClick={toggle}
        disabled={pending}
        aria-pressed={signedIn ? state.starred : undefined}
        aria-expanded={signedIn ? undefined : prompt}
        // starts with the visible text (WCAG 2.5.3, label in name), then says which skill
        aria-label={`${state.starred ? 'Starred' : 'Star'} ${state.stars}: ${state.starred ? 'unstar' : 'star'} ${ref}`}
        data-testid="star-button"
        data-starred={state.starred}
        className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs tabular-nums disabled:opacity-60 ${
          state.starred
            ? 'border-amber-600 bg-amber-50 text-amber-900 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-200'
            : 'border-zinc-300 text-zinc-800 hover:border-amber-600 dark:border-zinc-700 dark:text-zinc-200'
        }`}
      >
        <span aria-hidden="true">{state.starred ? '★' : '☆'}</span>
        {/* the spaces keep "Star 0" one phrase for the accessible-name check (not "Star0") */}
        {!compact && <span>{state.starred ? 'Starred' : 'Star'}</span>} <span data-testid="star-count">{state.stars}</span>
      </button>
      {prompt && (
        <span role="status" data-testid="star-sign-in" className="text-xs text-zinc-700 dark:text-zinc-300">
          <Link href={`/signin?next=${encodeURIComponent(next)}`} className="font-medium text-emerald-800 underline dark:text-emerald-400">
            Sign in
          </Link>{' '}
          to star skills.
        </span>
      )}
      {error && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </span>
  );
}
