// The line of the package's source that made an attempt. The sandbox runs transpiled
// code (esbuild reprints it), so a guest stack points at lines of no file the author
// has; the attempt's own target (the host or URL it asked for, the capability it
// touched) is looked up in the tool's source instead: the handler file first, then the
// package's other code files. The first line naming it is the one shown.
import type { SourceLine } from './types';

export type SourceFile = { file: string; text: string };

const MAX_LINE = 200;

/** The first line, over `files` in order, that contains one of `needles` (tried in order). */
export function locateLine(files: SourceFile[], needles: string[]): SourceLine | undefined {
  for (const needle of needles) {
    if (!needle) continue;
    for (const f of files) {
      const lines = f.text.split('\n');
      const i = lines.findIndex((l) => l.includes(needle));
      if (i >= 0) return { file: f.file, line: i + 1, text: lines[i].trim().slice(0, MAX_LINE) };
    }
  }
  return undefined;
}

/** What to look for, most specific first: a URL as written, its host, then the API used. */
export function needlesFor(kind: 'net' | 'capability' | 'other', target: string, method: string): string[] {
  if (kind === 'net') {
    let host = '';
    try {
      host = new URL(target).host;
    } catch {
      host = target;
    }
    return [target, host, 'fetch('];
  }
  if (kind === 'capability') return [`.${target}.`, `.${target}`, `${target}`];
  return [method.split('_')[0]];
}
