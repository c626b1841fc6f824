'use client';
// A small "Copy" button for a snippet; says "Copied" for a moment (and to screen readers).
import { useState } from 'react';

export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setState('copied');
        } catch {
          setState('failed'); // no clipboard (an insecure origin): the text stays selectable
        }
        setTimeout(() => setState('idle'), 1500);
      }}
      className="shrink-0 rounded border border-zinc-300 bg-white px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
      aria-label={`Copy ${label}`}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy'}</span>
    </button>
  );
}
