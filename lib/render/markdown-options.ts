// How a skill's markdown (readme, changelog, a run's markdown output) becomes HTML, the same
// in the browser (app/_components/markdown.tsx) and on the server's render thread
// (render-worker.ts). Skill markdown is untrusted: no raw HTML is rendered (skipHtml), and
// links are limited to http(s), mailto and the page itself, so no `javascript:` URL reaches
// the page. Written without JSX: the worker is bundled by esbuild as plain TypeScript.
import { createElement, type ReactNode } from 'react';
import type { Components, Options } from 'react-markdown';

/** the render thread's `lang` for markdown rendered to HTML (render-worker.ts) */
export const MARKDOWN_HTML = 'markdown-html';

const SAFE_URL = /^(https?:|mailto:|#|\/)/i;

// The readme sits under the page's "Readme" (h2), and a page has one h1: a skill's `#`
// becomes an h3, `##` an h4 and so on (h6 at most), styled by its level in the source.
type Level = 1 | 2 | 3 | 4 | 5 | 6;
function heading(level: Level) {
  const tag = `h${Math.min(level + 2, 6)}`;
  function Heading({ children }: { children?: ReactNode }) {
    return createElement(tag, { className: `md-h${level}` }, children);
  }
  return Heading;
}

const components: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  // a code block that scrolls sideways can be scrolled from the keyboard
  pre: ({ children }) => createElement('pre', { tabIndex: 0 }, children),
  a: ({ href, children }) => createElement('a', { href, rel: 'nofollow noopener noreferrer' }, children),
  img: ({ alt }) => createElement('span', { className: 'text-zinc-500' }, `[image: ${alt ?? ''}]`),
};

export const markdownOptions: Omit<Options, 'children'> = {
  skipHtml: true,
  urlTransform: (url) => (SAFE_URL.test(url) ? url : ''),
  components,
};
