// Highlighting a skill's files and rendering its markdown, off the web process's event loop
// (render-thread.ts): one thread per process, its answers cached by the text's hash.
import 'server-only';
import { MARKDOWN_HTML } from './markdown-options';
import { RenderThread } from './render-thread';

export { languageOf } from './languages';
export { RenderThread, type RenderThreadOptions, type RenderStats } from './render-thread';

// shared through globalThis: Next.js may load this module once per route bundle
const shared = globalThis as unknown as { skillyardRenderThread?: RenderThread };
const thread = () => (shared.skillyardRenderThread ??= new RenderThread());

/** The file's highlighted HTML (shiki, every character escaped), or null: show it as plain text. */
export function highlightSource(text: string, lang: string): Promise<string | null> {
  return thread().render(text, lang);
}

/** A skill's markdown as HTML (react-markdown: no raw HTML, safe links), or null: show it as plain text. */
export function renderMarkdown(text: string): Promise<string | null> {
  return thread().render(text, MARKDOWN_HTML);
}
