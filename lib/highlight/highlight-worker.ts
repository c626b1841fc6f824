// Worker-thread entry (bundled to dist/highlight/highlight-worker.mjs by
// highlight-worker-build.ts): highlights one file per message with shiki (JavaScript regex
// engine: no WebAssembly to load). Shiki escapes the text it wraps, so the HTML of an
// untrusted file is safe to insert. Only a fixed set of grammars is loaded.
import { parentPort } from 'node:worker_threads';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

export type HighlightJob = { id: number; text: string; lang: string };
export type HighlightReply = { id: number; html: string } | { id: number; error: string };

let highlighter: Promise<HighlighterCore> | null = null;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
    langs: [
      import('shiki/langs/javascript.mjs'),
      import('shiki/langs/typescript.mjs'),
      import('shiki/langs/python.mjs'),
      import('shiki/langs/shellscript.mjs'),
      import('shiki/langs/json.mjs'),
      import('shiki/langs/yaml.mjs'),
      import('shiki/langs/markdown.mjs'),
    ],
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

if (!parentPort) throw new Error('highlight-worker runs as a worker thread');
const port = parentPort;
port.on('message', (job: HighlightJob) => {
  getHighlighter()
    .then((h) => h.codeToHtml(job.text, { lang: job.lang, themes: { light: 'github-light', dark: 'github-dark' } }))
    .then(
      (html): HighlightReply => ({ id: job.id, html }),
      (err: unknown): HighlightReply => ({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
    )
    .then((reply) => port.postMessage(reply));
});
