'use client';
// Forking runs the shared run's configuration again as the viewer, with the viewer's
// connected accounts and tokens: the code in it (a scripted run's turns) was written by
// whoever shared the link. So the fork first shows what will run and asks (issue 23).
import { useEffect, useId, useState } from 'react';
import { ForkVersionChoice, type ForkVersions } from './fork-version-choice';

type ForkPreview = { skills: string[]; provider: string; task: string; script?: Array<string | { text?: string; code?: string }> | null };
type PinsPreview = { skills: Array<{ ref: string; version: string }> } | null;

export function ForkConfirm({ runId, busy, onConfirm, onCancel }: { runId: string; busy: boolean; onConfirm: (versions: ForkVersions) => void; onCancel: () => void }) {
  const [preview, setPreview] = useState<ForkPreview | null>(null);
  const [pins, setPins] = useState<PinsPreview>(null);
  const [versions, setVersions] = useState<ForkVersions | null>({ mode: 'same' });
  const [failed, setFailed] = useState(false);
  const titleId = useId();

  useEffect(() => {
    const ctl = new AbortController();
    fetch(`/api/v1/runs/${runId}`, { cache: 'no-store', signal: ctl.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ config: ForkPreview; pins?: PinsPreview }>) : Promise.reject(new Error(String(r.status)))))
      .then((r) => {
        setPins(r.pins ?? null);
        setPreview(r.config);
      })
      .catch(() => !ctl.signal.aborted && setFailed(true));
    return () => ctl.abort();
  }, [runId]);

  const turns = (preview?.script ?? []).map((t) => (typeof t === 'string' ? t : (t.code ?? ''))).filter((code) => code.trim());

  return (
    <section
      role="dialog"
      aria-labelledby={titleId}
      data-testid="fork-confirm"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id={titleId} className="font-semibold">
        Run this as you?
      </h2>
      <p>
        A fork runs this configuration again <strong>as you, with your connected accounts and tokens</strong>. Whoever shared the link wrote it: read what it will do first.
      </p>
      {failed && <p role="alert">Could not load what this run does; it was not forked.</p>}
      {!preview && !failed && <p>Loading what will run…</p>}
      {preview && (
        <div className="space-y-2" data-testid="fork-preview">
          <p>
            <span className="font-medium">Skills:</span> <span className="font-mono">{preview.skills.join(', ')}</span> · <span className="font-medium">Model:</span>{' '}
            {preview.provider}
          </p>
          <p className="break-words">
            <span className="font-medium">Task:</span> {preview.task}
          </p>
          {turns.length > 0 ? (
            <div>
              <p className="font-medium">Code it runs ({turns.length === 1 ? 'one turn' : `${turns.length} turns`}):</p>
              {turns.map((code, i) => (
                // a scrollable region takes focus, so a keyboard can scroll a long line
                <pre
                  key={i}
                  data-testid="fork-code"
                  tabIndex={0}
                  className="mt-1 max-h-48 overflow-auto rounded bg-white p-2 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
                >
                  {code}
                </pre>
              ))}
            </div>
          ) : (
            <p>No code is stored with this run: {preview.provider === 'manual' ? 'you write each turn yourself.' : 'the model writes it as it goes.'}</p>
          )}
        </div>
      )}
      {preview && <ForkVersionChoice pins={pins?.skills ?? []} onChange={setVersions} />}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="fork-confirm-run"
          onClick={() => versions && onConfirm(versions)}
          disabled={!preview || busy || !versions}
          className="rounded-md bg-amber-700 px-3 py-1.5 font-medium text-white hover:bg-amber-800 disabled:opacity-60"
        >
          {busy ? 'Forking…' : 'Run it as me'}
        </button>
        <button
          type="button"
          data-testid="fork-confirm-cancel"
          onClick={onCancel}
          className="rounded-md border border-amber-400 px-3 py-1.5 hover:bg-amber-100 dark:hover:bg-amber-900"
        >
          Cancel
        </button>
      </div>
    </section>
  );
}
