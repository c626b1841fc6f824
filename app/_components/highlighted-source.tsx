import 'server-only';
// Source files of a skill, highlighted on the server with shiki on a thread of its own
// (lib/render). Shiki escapes the text it wraps, so untrusted skill files are safe to
// insert; only a fixed set of grammars is loaded, the rest shows as plain text.
import { highlightSource, languageOf } from '@/lib/render';

const MAX_SHOWN_CHARS = 200_000;
/**
 * Larger files show as plain text: shiki's time grows with the text (16 KB of TypeScript
 * about 0.1-0.2 s of the highlight thread's CPU, 64 KB 0.5-1.9 s) and its HTML is about
 * four times the text, sent twice (the page and its React payload).
 */
export const MAX_HIGHLIGHT_CHARS = 16 * 1024;

/** `totalBytes`: the whole file's size when `source` is only its start (the viewer reads a prefix) */
export async function HighlightedSource({ path, source, totalBytes }: { path: string; source: string; totalBytes?: number }) {
  const lang = languageOf(path);
  const text = source.length > MAX_SHOWN_CHARS ? source.slice(0, MAX_SHOWN_CHARS) : source;
  const tooLarge = lang !== null && text.length > MAX_HIGHLIGHT_CHARS;
  let html: string | null = null;
  // on a thread of its own; too busy, too slow or a grammar that chokes on this file: plain text below
  if (lang && !tooLarge) html = await highlightSource(text, lang);
  return (
    <div data-testid="file-source" data-lang={lang ?? 'text'} className="source-view min-w-0">
      {tooLarge && (
        <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="file-not-highlighted">
          Shown without highlighting: files up to {MAX_HIGHLIGHT_CHARS.toLocaleString('en-US')} characters are highlighted.
        </p>
      )}
      {html ? (
        // shiki output: every character of the file is escaped inside its spans
        <div tabIndex={0} role="region" aria-label={`Source of ${path}`} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <pre tabIndex={0} className="overflow-x-auto rounded-lg border border-zinc-200 p-3 font-mono text-xs dark:border-zinc-800">
          {text}
        </pre>
      )}
      {text !== source && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Only the first {MAX_SHOWN_CHARS.toLocaleString('en-US')} characters are shown.</p>}
      {text === source && totalBytes !== undefined && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="file-truncated">
          Only the start of this file is shown ({totalBytes.toLocaleString('en-US')} bytes in all); install the skill for the whole file.
        </p>
      )}
    </div>
  );
}
