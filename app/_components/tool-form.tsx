'use client';
// Try one tool without an agent: a form generated from the tool's JSON Schema (enums as
// choices, defaults filled in, descriptions as help, required fields marked), sent to
// POST /api/v1/tools/{name}/invoke, with the result (or the error) and the time below.
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { initialValues, valuesToArgs, type FormValues, type SchemaField } from '@/lib/forms/schema-fields';
import { JsonView } from './json-view';

export type TryableTool = { name: string; skill: string; fields: SchemaField[]; cannotRun: string | null; locked: string | null };

type Outcome = { ok: true; result: unknown; ms: number } | { ok: false; code: string; message: string; status: number; ms: number };

const field = 'w-full min-w-0 rounded-md border border-zinc-400 bg-white px-2 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900';

function Field({ f, value, problem, onChange, idBase }: { f: SchemaField; value: string | boolean; problem?: string; onChange: (v: string | boolean) => void; idBase: string }) {
  const id = `${idBase}-${f.name}`;
  const help = f.description || f.default !== undefined ? `${id}-help` : undefined;
  const common = { id, 'aria-describedby': help, 'aria-invalid': problem ? true : undefined, 'aria-required': f.required || undefined, 'data-field': f.name };
  let input: React.ReactNode;
  if (f.kind === 'boolean') {
    input = <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="h-4 w-4" />;
  } else if (f.kind === 'enum') {
    input = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)} className={field}>
        {!f.required && <option value="">(not set)</option>}
        {(f.enum ?? []).map((v) => (
          <option key={String(v)} value={String(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    );
  } else if (f.kind === 'text' || f.kind === 'json') {
    input = (
      <textarea
        {...common}
        rows={f.kind === 'json' ? 3 : 2}
        value={String(value)}
        placeholder={f.kind === 'json' ? `JSON (${f.type})` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={`${field} ${f.kind === 'json' ? 'font-mono text-xs' : ''}`}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type={f.kind === 'number' || f.kind === 'integer' ? 'number' : 'text'}
        step={f.kind === 'integer' ? 1 : 'any'}
        min={f.minimum}
        max={f.maximum}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
        className={field}
      />
    );
  }
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-mono font-medium">{f.name}</span>
        {f.required && (
          <span className="text-xs text-red-700 dark:text-red-400" data-testid="required-mark">
            required
          </span>
        )}
        <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{f.type}</span>
      </label>
      {input}
      {help && (
        <p id={help} className="text-xs text-zinc-600 dark:text-zinc-400">
          {f.description}
          {f.default !== undefined && <span> (default {JSON.stringify(f.default)})</span>}
        </p>
      )}
      {problem && (
        <p className="text-xs text-red-700 dark:text-red-400">
          {f.name}: {problem}
        </p>
      )}
    </div>
  );
}

export function ToolForm({ tool }: { tool: TryableTool }) {
  const idBase = useId();
  const [values, setValues] = useState<FormValues>(() => initialValues(tool.fields));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const { args, problems: found } = valuesToArgs(tool.fields, values);
    setProblems(found);
    if (Object.keys(found).length) return;
    setRunning(true);
    const started = performance.now();
    try {
      const res = await fetch(`/api/v1/tools/${encodeURIComponent(tool.name)}/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ args, skill: tool.skill }),
      });
      const body = (await res.json().catch(() => null)) as { result?: unknown; error?: { code?: string; message?: string } } | null;
      const ms = performance.now() - started;
      if (res.ok) {
        setOutcome({ ok: true, result: body?.result, ms });
        // a tool that issued a token may have unlocked others: show the page as it is now
        router.refresh();
      } else setOutcome({ ok: false, status: res.status, code: body?.error?.code ?? 'error', message: body?.error?.message ?? `HTTP ${res.status}`, ms });
    } catch {
      setOutcome({ ok: false, status: 0, code: 'network', message: 'Could not reach the server.', ms: performance.now() - started });
    } finally {
      setRunning(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="tool-form" data-tool={tool.name} className="min-w-0 space-y-3" noValidate>
      {tool.cannotRun && <p className="rounded-md bg-zinc-100 px-2 py-1 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">Cannot run here: it {tool.cannotRun}.</p>}
      {tool.locked && <p className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">Locked: {tool.locked}.</p>}
      {tool.fields.length === 0 && <p className="text-xs text-zinc-600 dark:text-zinc-400">This tool takes no parameters.</p>}
      <div className="grid gap-3 sm:grid-cols-2">
        {tool.fields.map((f) => (
          <Field key={f.name} f={f} idBase={idBase} value={values[f.name] ?? ''} problem={problems[f.name]} onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))} />
        ))}
      </div>
      <button
        type="submit"
        data-testid="tool-form-run"
        disabled={running}
        className="rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-50"
      >
        {running ? 'Running…' : `Run ${tool.name}`}
      </button>
      <div aria-live="polite" data-testid="tool-form-outcome">
        {outcome && (
          <div className="space-y-1">
            <p className="text-xs text-zinc-700 dark:text-zinc-300">
              {outcome.ok ? 'Result' : `Error${outcome.status ? ` (HTTP ${outcome.status})` : ''}`} in{' '}
              <span data-testid="tool-form-ms" className="font-mono tabular-nums">
                {Math.round(outcome.ms)} ms
              </span>
            </p>
            {outcome.ok ? (
              <JsonView value={outcome.result} label="result" open testId="tool-form-result" />
            ) : (
              <p
                data-testid="tool-form-error"
                className="rounded-md border border-red-200 bg-red-50 px-2 py-1 text-xs break-words text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
              >
                <code className="font-mono font-semibold">{outcome.code}</code> {outcome.message}
              </p>
            )}
          </div>
        )}
      </div>
    </form>
  );
}
