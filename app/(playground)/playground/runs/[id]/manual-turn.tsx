'use client';
// Manual mode: the run's owner writes the code of the turn the agent waits for.
import { useState } from 'react';
import { CodeEditor } from '@/app/_components/code-editor';
import { buttonClass } from './run-header';

/** A tool the run may call, as the manual editor lists it. */
export type ManualTool = { name: string; description: string; params: Array<{ name: string; type: string; required: boolean; description: string }> };

function ToolReference({ tools, onPick }: { tools: ManualTool[]; onPick: (snippet: string) => void }) {
  if (tools.length === 0) return null;
  return (
    <details data-testid="manual-tools" className="text-xs" open>
      <summary className="cursor-pointer font-medium text-zinc-800 dark:text-zinc-200">Tools you can call ({tools.length})</summary>
      <ul className="mt-1 space-y-2">
        {tools.map((t) => {
          const args = t.params
            .filter((p) => p.required)
            .map((p) => `${p.name}: ${p.type === 'string' ? "''" : p.type === 'number' || p.type === 'integer' ? '0' : p.type === 'boolean' ? 'false' : 'null'}`);
          const snippet = `const r = await ctx.invoke('${t.name}', { ${args.join(', ')} });\nreturn r;`;
          return (
            <li key={t.name} className="min-w-0 rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
              <div className="flex flex-wrap items-center gap-2">
                <code className="font-mono font-semibold">{t.name}</code>
                <button
                  type="button"
                  onClick={() => onPick(snippet)}
                  className="rounded border border-zinc-300 px-1.5 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
                >
                  Insert a call
                </button>
              </div>
              <p className="text-zinc-700 dark:text-zinc-300">{t.description}</p>
              {t.params.length > 0 && (
                <ul className="mt-1 font-mono">
                  {t.params.map((p) => (
                    <li key={p.name} className="break-words">
                      {p.name}
                      {p.required ? '' : '?'}: <span className="text-sky-800 dark:text-sky-300">{p.type}</span>
                      {p.description && <span className="font-sans text-zinc-600 dark:text-zinc-400"> — {p.description}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

export function ManualTurn({ runId, turnNumber, tools }: { runId: string; turnNumber: number; tools: ManualTool[] }) {
  const [code, setCode] = useState('');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (turn: unknown) => {
    setSending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/runs/${runId}/turns`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ turn }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(body?.error?.message ?? `The server answered ${res.status}.`);
        setSending(false);
      }
      // on success the form goes away when the turn's first event arrives
    } catch {
      setError('Could not reach the server.');
      setSending(false);
    }
  };

  return (
    <section
      data-testid="manual-turn"
      aria-labelledby="manual-heading"
      className="space-y-3 rounded-xl border-2 border-amber-300 bg-amber-50/50 p-4 dark:border-amber-800 dark:bg-amber-950/20"
    >
      <h2 id="manual-heading" className="text-sm font-semibold">
        Your turn {turnNumber}: write the agent&apos;s code
      </h2>
      <div>
        <label htmlFor="manual-text" className="mb-1 block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Message (optional)
        </label>
        <input
          id="manual-text"
          data-testid="manual-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
      </div>
      <div>
        <label htmlFor="manual-code" className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
          Code (runs in the sandbox with <code className="font-mono">ctx</code> and <code className="font-mono">memory</code>)
        </label>
        <CodeEditor
          id="manual-code"
          testId="manual-code"
          minRows={6}
          value={code}
          placeholder={"const r = await ctx.invoke('tool-name', { /* args */ });\nreturn r;"}
          onChange={setCode}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && code.trim()) void send(text ? { text, code } : code);
          }}
        />
      </div>
      <ToolReference tools={tools} onPick={(snippet) => setCode((c) => (c.trim() ? `${c}\n${snippet}` : snippet))} />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          data-testid="run-turn"
          disabled={sending || !code.trim()}
          onClick={() => void send(text ? { text, code } : code)}
          className="rounded-lg bg-emerald-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-50"
        >
          {sending ? 'Running…' : 'Run turn'}
        </button>
        <button type="button" data-testid="end-turns" disabled={sending} onClick={() => void send(text ? { text } : null)} className={buttonClass}>
          {text ? 'Reply without code (ends the run)' : 'End the run'}
        </button>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">Ctrl+Enter runs the turn</span>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}
