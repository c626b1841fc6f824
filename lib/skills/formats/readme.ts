import type { Pkg } from '../package';

/** First prose paragraph of README.md, for formats with no description field. */
export function readmeSummary(pkg: Pkg, rel = 'README.md'): string | null {
  if (!pkg.has(rel)) return null;
  const text = pkg.readText(rel);
  if (!text) return null;
  for (const para of text.split(/\r?\n\s*\r?\n/)) {
    const p = para.trim();
    if (!p || p.startsWith('#') || p.startsWith('```') || p.startsWith('<!--') || p.startsWith('---')) continue;
    return p.replace(/\s+/g, ' ').slice(0, 1024);
  }
  return null;
}
