// Worker-thread entry (bundled to dist/render/render-worker.mjs by render-worker-build.ts):
// one job per message, off the web process's event loop: a file highlighted with shiki
// (JavaScript regex engine: no WebAssembly to load; only a fixed set of grammars), or a
// skill's markdown rendered by react-markdown with markdown-options.ts (no raw HTML, safe
// links). Both escape every character of the text they wrap, so the HTML of an untrusted
// file is safe to insert.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { parentPort } from 'node:worker_threads';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

import { MARKDOWN_HTML, markdownOptions } from './markdown-options';

/** `lang`: a grammar to highlight with, or 'markdown-html' to render markdown */
export type RenderJob = { id: number; text: string; lang: string };
export type RenderReply = { id: number; html: string } | { id: number; error: string };

async function render(job: RenderJob): Promise<string> {
  if (job.lang === MARKDOWN_HTML) return renderToStaticMarkup(createElement(ReactMarkdown, markdownOptions, job.text));
  return (await getHighlighter()).codeToHtml(job.text, { lang: job.lang, themes: { light: 'github-light', dark: 'github-dark' } });
}

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

if (!parentPort) throw new Error('render-worker runs as a worker thread');
const port = parentPort;
port.on('message', (job: RenderJob) => {
  render(job)
    .then(
      (html): RenderReply => ({ id: job.id, html }),
      (err: unknown): RenderReply => ({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
    )
    .then((reply) => port.postMessage(reply));
});
