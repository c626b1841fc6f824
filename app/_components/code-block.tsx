// A small, dependency-free JavaScript highlighter for agent code: comments, strings,
// numbers, keywords and the ctx/memory globals. Text only: no HTML is ever injected.
import { memo } from 'react';

const TOKEN =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|('(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?|`(?:\\[\s\S]|[^`\\])*`?)|(\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b)|\b(await|async|break|case|catch|class|const|continue|default|delete|do|else|export|finally|for|function|if|import|in|instanceof|let|new|of|return|switch|throw|try|typeof|var|void|while|yield)\b|\b(true|false|null|undefined|this|NaN|Infinity)\b|\b(ctx|memory|console)\b/g;

const CLASSES = [
  'text-zinc-600 italic dark:text-zinc-400', // comment
  'text-amber-700 dark:text-amber-300', // string
  'text-sky-700 dark:text-sky-300', // number
  'text-violet-700 dark:text-violet-300 font-medium', // keyword
  'text-sky-700 dark:text-sky-300', // literal
  'text-emerald-700 dark:text-emerald-300', // globals
];

const MAX_CODE_CHARS = 20_000;

export function highlight(code: string): React.ReactNode[] {
  const out: React.ReactNode[] = [];
  let last = 0;
  for (const m of code.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) out.push(code.slice(last, at));
    const group = m.slice(1).findIndex((g) => g !== undefined);
    out.push(
      <span key={at} className={CLASSES[group]}>
        {m[0]}
      </span>,
    );
    last = at + m[0].length;
  }
  if (last < code.length) out.push(code.slice(last));
  return out;
}

export const CodeBlock = memo(function CodeBlock({ code, testId, markLine }: { code: string; testId?: string; markLine?: number }) {
  const shown = code.length > MAX_CODE_CHARS ? code.slice(0, MAX_CODE_CHARS) : code;
  return (
    <pre
      data-testid={testId}
      tabIndex={0}
      className="relative max-w-full overflow-x-auto rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-5 text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
    >
      {markLine !== undefined && (
        // a band behind the line an error points at (p-3 = 0.75rem, leading-5 = 1.25rem a line)
        <span
          aria-hidden
          data-testid="code-error-line"
          data-line={markLine}
          className="pointer-events-none absolute inset-x-0 bg-red-500/15"
          style={{ top: `calc(0.75rem + ${(markLine - 1) * 1.25}rem)`, height: '1.25rem' }}
        />
      )}
      <code className="relative">{highlight(shown)}</code>
      {shown !== code && <span className="text-zinc-600 dark:text-zinc-400">{`\n… ${code.length - MAX_CODE_CHARS} more characters`}</span>}
    </pre>
  );
});
