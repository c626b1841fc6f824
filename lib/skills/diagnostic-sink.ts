import type { Diagnostic } from './types';

/** pointer -> 1-based line, as produced by the located JSON/YAML/Python/TS parsers */
export type LineMap = Map<string, number>;

export type Where = { file?: string; path?: string; line?: number; lines?: LineMap; lineOffset?: number };

/** Escape one JSON pointer segment (RFC 6901). */
export function ptr(parent: string, key: string | number): string {
  return `${parent}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Line of the nearest ancestor of `pointer` that the parser located. */
export function lineOf(lines: LineMap | undefined, pointer: string | undefined): number | undefined {
  if (!lines || pointer === undefined) return undefined;
  let p = pointer;
  for (;;) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (p === '') return undefined;
    const i = p.lastIndexOf('/');
    p = i <= 0 ? '' : p.slice(0, i);
  }
}

/** Collects diagnostics; a reader never throws, it reports here. */
export class DiagnosticSink {
  readonly list: Diagnostic[] = [];

  add(severity: Diagnostic['severity'], code: string, message: string, where: Where = {}): void {
    const d: Diagnostic = { severity, code, message };
    if (where.file !== undefined) d.file = where.file;
    if (where.path !== undefined) d.path = where.path;
    let line = where.line ?? lineOf(where.lines, where.path);
    if (line !== undefined) {
      if (where.line === undefined && where.lineOffset) line += where.lineOffset;
      d.line = line;
    }
    // The same problem reached twice (e.g. one schema checked for two tools) is noise.
    if (this.list.some((x) => x.code === d.code && x.file === d.file && x.path === d.path && x.message === d.message)) return;
    this.list.push(d);
  }
  error(code: string, message: string, where?: Where): void {
    this.add('error', code, message, where);
  }
  warn(code: string, message: string, where?: Where): void {
    this.add('warning', code, message, where);
  }
  /** Something the reader did on the author's behalf (followed a link, skipped a file that is not its format's). */
  note(code: string, message: string, where?: Where): void {
    this.add('note', code, message, where);
  }
  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }
}

/** Bound location helper: one file, one line map. */
export class FileScope {
  constructor(
    readonly sink: DiagnosticSink,
    readonly file: string,
    readonly lines?: LineMap,
    readonly lineOffset = 0,
    /** every diagnostic gets this line (text embedded in one line of the file, e.g. an inline delegate) */
    readonly pinnedLine?: number,
  ) {}
  error(code: string, message: string, path?: string, line?: number): void {
    this.sink.error(code, message, this.where(path, line));
  }
  warn(code: string, message: string, path?: string, line?: number): void {
    this.sink.warn(code, message, this.where(path, line));
  }
  note(code: string, message: string, path?: string, line?: number): void {
    this.sink.note(code, message, this.where(path, line));
  }
  private where(path?: string, line?: number): Where {
    if (this.pinnedLine !== undefined) return { file: this.file, path, line: this.pinnedLine };
    return { file: this.file, path, line, lines: this.lines, lineOffset: this.lineOffset };
  }
  with(lines: LineMap | undefined, lineOffset = 0): FileScope {
    return new FileScope(this.sink, this.file, lines, lineOffset, this.pinnedLine);
  }
  /** A scope for text embedded at `pointer` of this file. */
  embedded(pointer: string): FileScope {
    const l = this.pinnedLine ?? lineOf(this.lines, pointer);
    return new FileScope(this.sink, this.file, undefined, 0, l === undefined ? undefined : l + (this.pinnedLine === undefined ? this.lineOffset : 0));
  }
}
