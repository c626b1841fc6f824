'use client';
// One tool call of the trace: the model's code (an `invoke`) with the calls its code made
// nested below. A code run with many calls collapses to a summary, its errors first.
import { memo, useState } from 'react';
import { userCodePosition, failedCalls, formatMs, plural, type CallNode, type TraceError } from '@/lib/trace';
import { CodeBlock } from '@/app/_components/code-block';
import { JsonView } from '@/app/_components/json-view';

/** Above this many nested calls, a code run shows a summary and its errors, not every call. */
export const COLLAPSE_AT = 25;

export function Duration({ ms }: { ms: number | undefined }) {
  const text = formatMs(ms);
  return text ? (
    <span data-testid="duration" className="font-mono text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
      {text}
    </span>
  ) : null;
}

function StatusDot({ status }: { status: CallNode['status'] }) {
  const cls = status === 'ok' ? 'bg-emerald-500' : status === 'error' ? 'bg-red-500' : 'animate-pulse bg-amber-400';
  const label = status === 'pending' ? 'running' : status === 'ok' ? 'succeeded' : 'failed';
  return <span role="img" aria-label={label} className={`inline-block h-2 w-2 shrink-0 rounded-full ${cls}`} />;
}

export function ErrorBox({ error, title, testId }: { error: TraceError; title?: string; testId?: string }) {
  return (
    <div
      data-testid={testId}
      role="note"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs break-words text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
    >
      {title && <span className="mr-2 font-semibold">{title}</span>}
      <code className="font-mono font-semibold">{error.code}</code>
      {error.message && <span className="ml-2 whitespace-pre-wrap">{error.message}</span>}
    </div>
  );
}

function Logs({ logs }: { logs?: string[] }) {
  if (!logs?.length) return null;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">console ({plural(logs.length, 'line')})</summary>
      <pre tabIndex={0} className="mt-1 max-h-60 overflow-auto rounded bg-zinc-900 p-2 font-mono text-zinc-100">
        {logs.slice(0, 100).join('\n')}
      </pre>
    </details>
  );
}

export const CodeCall = memo(
  function CodeCall({ node }: { node: CallNode; rev: number }) {
    return (
      <li
        data-testid="tool-call"
        data-tool={node.tool}
        data-status={node.status}
        data-seqs={node.seqs.join(',')}
        data-trace-error={node.status === 'error' ? '' : undefined}
        tabIndex={node.status === 'error' ? -1 : undefined}
        className="min-w-0 space-y-1.5 py-2"
      >
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <StatusDot status={node.status} />
          <code className="font-mono font-medium break-all">ctx.invoke(&apos;{node.tool}&apos;)</code>
          <Duration ms={node.durationMs} />
        </div>
        <div className="grid min-w-0 gap-1.5 pl-4">
          <JsonView value={node.args} label="args" testId="tool-args" />
          {node.status === 'ok' && <JsonView value={node.result} label="result" testId="tool-result" />}
          {node.error && <ErrorBox error={node.error} testId="tool-error" />}
          <Logs logs={node.logs} />
        </div>
      </li>
    );
  },
  (a, b) => a.node === b.node && a.rev === b.rev,
);

/** The calls made by one code run: every call, or for many calls a summary with the errors first. */
function NestedCalls({ node, tool }: { node: CallNode; tool: string }) {
  const [expanded, setExpanded] = useState(false);
  const shown = tool ? node.children.filter((c) => c.tool === tool) : node.children;
  if (shown.length === 0) return null;
  const errors = shown.flatMap(failedCalls);
  const collapsed = shown.length > COLLAPSE_AT && !expanded;
  const list = collapsed ? errors : shown;
  return (
    <div className="space-y-1">
      {shown.length > COLLAPSE_AT && (
        <div data-testid="calls-summary" className="flex flex-wrap items-center gap-2 text-xs text-zinc-700 dark:text-zinc-300">
          <span className="font-medium">
            {plural(shown.length, 'call')}, {plural(errors.length, 'error')}
          </span>
          <button
            type="button"
            data-testid="toggle-calls"
            aria-expanded={expanded}
            onClick={() => setExpanded((x) => !x)}
            className="rounded border border-zinc-300 px-1.5 py-0.5 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            {expanded ? 'Show the errors only' : `Show all ${plural(shown.length, 'call')}`}
          </button>
        </div>
      )}
      {list.length > 0 && (
        <ul
          className="divide-y divide-zinc-100 border-l-2 border-emerald-200 pl-3 dark:divide-zinc-900 dark:border-emerald-900"
          aria-label={collapsed ? 'Failed tool calls from this code' : 'Tool calls from this code'}
        >
          {list.map((c) => (
            <CodeCall key={c.key} node={c} rev={c.rev} />
          ))}
        </ul>
      )}
    </div>
  );
}

export const InvokeCall = memo(
  function InvokeCall({ node, tool }: { node: CallNode; rev: number; tool: string }) {
    const code = node.args && typeof node.args === 'object' ? (node.args as { code?: unknown }).code : undefined;
    const value = node.result && typeof node.result === 'object' && 'value' in (node.result as object) ? (node.result as { value: unknown }).value : node.result;
    // errors point at the line of the code as written, not at the sandbox's wrapper module
    const where = node.error && typeof code === 'string' ? userCodePosition(node.error.message, code.split('\n').length) : null;
    const error =
      node.error && where
        ? { ...node.error, message: where.position ? `${where.message} (line ${where.position.line}, column ${where.position.column} of this code)` : where.message }
        : node.error;
    return (
      <div data-testid="invoke" data-status={node.status} data-seqs={node.seqs.join(',')} className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-xs font-medium text-zinc-600 dark:text-zinc-400">
          <StatusDot status={node.status} />
          {/* only the label is in capitals: a duration reads "1.13 s", not "1.13 S" */}
          <span className="tracking-wide uppercase">{node.tool === 'invoke' ? 'Code' : node.tool}</span>
          <Duration ms={node.durationMs} />
          {node.denied && <span className="rounded bg-red-100 px-1.5 text-red-800 dark:bg-red-950 dark:text-red-300">denied: {node.denied}</span>}
        </div>
        {typeof code === 'string' ? <CodeBlock code={code} testId="invoke-code" markLine={where?.position?.line} /> : <JsonView value={node.args} label="args" />}
        <NestedCalls node={node} tool={tool} />
        {node.status === 'ok' && <JsonView value={value} label="returned" testId="invoke-result" />}
        {error && (
          <div data-trace-error="" tabIndex={-1}>
            <ErrorBox error={error} title="Code failed" testId="invoke-error" />
          </div>
        )}
        <Logs logs={node.logs} />
      </div>
    );
  },
  (a, b) => a.node === b.node && a.rev === b.rev && a.tool === b.tool,
);
