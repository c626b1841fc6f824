// One skill package as the readers see it: its files (package-relative), the limits,
// the diagnostics sink, and the path rules (no climbing out, no links).

import { DiagnosticSink, FileScope, type LineMap } from './diagnostic-sink';
import type { LoaderFacts } from './agents/types';
import type { ReadLimits } from './limits';
import type { KeyRing } from './signature';
import { decodeText } from './text';
import type { HandlerKind, SkillFormat, SkillManifest, ToolManifest } from './types';

export type TreeFile = {
  /** posix path inside the tree, no leading '/', no '..' */
  path: string;
  /** null when not read (yet: see `load`; or too large, a symlink, unreadable) */
  content: Uint8Array | null;
  /** reads the content when a reader needs it (disk walks read only the files parsed) */
  load?: () => Uint8Array;
  size: number;
  symlink?: boolean;
  /** how a disk link resolved (a followed one is read as its target; the others are never opened) */
  link?: { target: string; state: 'followed' | 'outside' | 'broken' | 'loop' };
  tooLarge?: boolean;
  unreadable?: string;
};

export type ReaderOptions = { limits: ReadLimits; keyRing: KeyRing };

export class Pkg {
  readonly sink = new DiagnosticSink();
  /** what agents' loaders see in the skill file (set by the agent-skill reader) */
  loaderFacts?: LoaderFacts;
  private textCache = new Map<string, string | null>();

  constructor(
    /** package directory inside the tree ('' = tree root) */
    readonly root: string,
    /** package-relative path -> file */
    readonly files: Map<string, TreeFile>,
    readonly opts: ReaderOptions,
    /** the directory's own name, when known (for name/dir checks) */
    readonly dirName: string | null,
    /** files outside `files` the package may still reference (single-file skills) */
    private readonly lookup?: (rel: string) => TreeFile | undefined,
  ) {}

  private get(rel: string): TreeFile | undefined {
    return this.files.get(rel) ?? this.lookup?.(rel);
  }

  treePath(rel: string): string {
    return this.root ? `${this.root}/${rel}` : rel;
  }

  scope(rel: string, lines?: LineMap, lineOffset = 0): FileScope {
    return new FileScope(this.sink, this.treePath(rel), lines, lineOffset);
  }

  has(rel: string): boolean {
    const f = this.get(rel);
    return !!f && !f.symlink;
  }

  /** Text of a metadata file, or null after reporting why it cannot be read. */
  readText(rel: string): string | null {
    if (this.textCache.has(rel)) return this.textCache.get(rel)!;
    const f = this.get(rel);
    const scope = this.scope(rel);
    let out: string | null = null;
    if (!f) scope.error('file/not-found', `${rel} does not exist in the package`);
    else if (f.symlink) {
      /* reported once by the tree walk */
    } else if (f.tooLarge || (f.content && f.content.length > this.opts.limits.maxFileBytes)) {
      scope.error('file/too-large', `${this.treePath(rel)} is ${f.size} bytes; the limit for one file is ${this.opts.limits.maxFileBytes}`);
    } else if (f.unreadable || (!f.content && !f.load)) scope.error('file/unreadable', `${rel} could not be read${f.unreadable ? `: ${f.unreadable}` : ''}`);
    else out = this.decode(rel, f, scope);
    this.textCache.set(rel, out);
    return out;
  }

  private decode(rel: string, f: TreeFile, scope: FileScope): string | null {
    let content = f.content;
    if (!content) {
      try {
        content = f.load!();
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'ELOOP') scope.error('path/symlink', `${rel} is a symbolic link; links are never followed`);
        else scope.error('file/unreadable', `${rel} could not be read: ${err.code ?? err.message}`);
        return null;
      }
      if (content.length > this.opts.limits.maxFileBytes) {
        scope.error('file/too-large', `${this.treePath(rel)} is larger than ${this.opts.limits.maxFileBytes} bytes, the limit for one file`);
        return null;
      }
    }
    const d = decodeText(content);
    if (d.ok) return d.text;
    if (d.reason === 'binary') scope.error('file/binary', `${rel} is a binary file where text was expected`);
    else scope.error('file/encoding', `${rel} is not valid UTF-8`);
    return null;
  }

  /**
   * Resolve a relative reference (script, delegate) from a package-relative directory.
   * Returns null, after an error, when it leaves the package or is absolute.
   */
  resolveRef(fromDir: string, ref: string, scope: FileScope, pointer?: string): string | null {
    if (/^([a-zA-Z]:)?[\\/]/.test(ref) || ref.startsWith('~')) {
      scope.error('path/outside-package', `"${ref}" is an absolute path; references must be relative to the package`, pointer);
      return null;
    }
    const parts = fromDir ? fromDir.split('/') : [];
    for (const seg of ref.replace(/\\/g, '/').split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (parts.length === 0) {
          scope.error('path/outside-package', `"${ref}" resolves outside the package`, pointer);
          return null;
        }
        parts.pop();
      } else parts.push(seg);
    }
    return parts.join('/');
  }

  /** Package-relative file list for the manifest. */
  fileList(): string[] {
    return [...this.files.values()].filter((f) => !f.symlink).map((f) => (this.root ? f.path.slice(this.root.length + 1) : f.path)).sort();
  }
}

export function handlerKindFor(path: string): HandlerKind | null {
  if (/\.(m|c)?js$/i.test(path)) return 'js';
  if (/\.(m|c)?ts$/i.test(path)) return 'ts';
  if (/\.py$/i.test(path)) return 'python';
  if (/\.(sh|bash)$/i.test(path)) return 'bash';
  if (/\.md$/i.test(path)) return 'markdown';
  return null;
}

export function newTool(name: string, sourceName: string): ToolManifest {
  return {
    name,
    sourceName,
    description: '',
    role: null,
    visibility: null,
    tags: [],
    params: null,
    returns: null,
    capabilities: [],
    inputTokens: {},
    outputTokens: {},
    handler: { kind: 'none', ref: null },
    executor: null,
    timeoutMs: null,
  };
}

export function newManifest(name: string, format: SkillFormat): SkillManifest {
  return { name, description: '', format, source: '', version: null, instructions: null, allowedTools: null, metadata: {}, tools: [], files: [], signature: null, diagnostics: [] };
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
