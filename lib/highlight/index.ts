// Highlighting a skill's files for the file viewer, off the web process's event loop
// (highlight-thread.ts): one thread per process, its answers cached by the text's hash.
import 'server-only';
import { HighlightThread } from './highlight-thread';

export { languageOf } from './languages';
export { HighlightThread, type HighlightThreadOptions, type HighlightStats } from './highlight-thread';

// shared through globalThis: Next.js may load this module once per route bundle
const shared = globalThis as unknown as { skillyardHighlightThread?: HighlightThread };

/** The file's highlighted HTML (shiki, every character escaped), or null: show it as plain text. */
export function highlightSource(text: string, lang: string): Promise<string | null> {
  return (shared.skillyardHighlightThread ??= new HighlightThread()).highlight(text, lang);
}
