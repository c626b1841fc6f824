'use client';
// The owner's "Mark as reviewed" for one scan finding: a reason (kept with the finding and,
// for a team, in its audit log), sent through a server action; the page shows the review.
import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { reviewFindingAction } from '../../../_actions/review-finding';

type Props = { scope: string; name: string; version: string; rule: string; file: string; line: number };

export function FindingReviewForm(props: Props) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const id = useId();

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="rounded border border-zinc-400 px-2 py-1 text-xs hover:border-emerald-700 dark:border-zinc-600" data-testid="finding-review-open">
        Mark as reviewed
      </button>
    );
  }
  return (
    <form
      className="space-y-2"
      data-testid="finding-review-form"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        start(async () => {
          const res = await reviewFindingAction({ ...props, reason }).catch(() => null);
          if (res?.ok) {
            setOpen(false);
            router.refresh();
          } else setError(res ? res.error : 'Could not reach the server; try again.');
        });
      }}
    >
      <label htmlFor={id} className="block text-xs font-medium">
        Why is this finding fine? (shown to everyone, kept in the audit log)
      </label>
      <textarea
        id={id}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        maxLength={1000}
        rows={2}
        className="w-full rounded border border-zinc-400 bg-white p-2 text-sm dark:border-zinc-600 dark:bg-zinc-900"
      />
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400" data-testid="finding-review-error">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className="rounded bg-emerald-700 px-3 py-1 text-xs font-medium text-white hover:bg-emerald-800 disabled:opacity-60">
          Save review
        </button>
        <button type="button" onClick={() => setOpen(false)} className="rounded border border-zinc-400 px-3 py-1 text-xs dark:border-zinc-600">
          Cancel
        </button>
      </div>
    </form>
  );
}
