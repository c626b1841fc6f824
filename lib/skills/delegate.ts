// metadata.delegate: a package-relative path, or an inline:// ref
// (inline://code,<js> | inline://markdown,<md> | inline://base64,<another inline ref>).

import type { FileScope } from './diagnostic-sink';
import { handlerKindFor, type Pkg } from './package';
import { readMarkdownSkill } from './skill-frontmatter';
import { parseTsModule } from './ts-literal';
import type { HandlerKind } from './types';

export type ResolvedDelegate = { kind: HandlerKind; ref: string; file: string | null };

const INLINE = /^inline:\/\/([a-z0-9-]*),([\s\S]*)$/;

export function resolveDelegate(ref: string, pkg: Pkg, scope: FileScope, pointer: string, fromDir: string, depth = 0): ResolvedDelegate | null {
  if (ref.startsWith('inline://')) return resolveInline(ref, pkg, scope, pointer, depth);
  if (ref.startsWith('mcp://')) return { kind: 'mcp', ref, file: null };
  let path = ref;
  if (ref.startsWith('file://')) path = ref.slice('file://'.length);
  else if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-zA-Z]:[\\/]/.test(ref)) {
    scope.error('delegate/scheme-unsupported', `delegate "${ref.slice(0, 60)}" uses an unsupported scheme (use a relative path or inline://)`, pointer);
    return null;
  }
  const rel = pkg.resolveRef(fromDir, path, scope, pointer);
  if (rel === null) return null;
  if (!pkg.has(rel)) {
    scope.error('delegate/not-found', `delegate ${ref} does not exist in the package`, pointer);
    return null;
  }
  const kind = handlerKindFor(rel);
  if (!kind) {
    scope.error('delegate/type-unknown', `delegate ${ref} has an extension no runtime can run (.js, .ts, .py, .sh, .md)`, pointer);
    return null;
  }
  if (kind === 'js' || kind === 'ts') {
    const text = pkg.readText(rel);
    if (text !== null) {
      const mod = parseTsModule(text, rel, { maxDepth: pkg.opts.limits.maxDepth });
      const hs = pkg.scope(rel);
      for (const e of mod.syntaxErrors) hs.error('code/syntax-error', e.message, undefined, e.line);
      if (!mod.syntaxErrors.length && !mod.hasDefaultExport) scope.error('delegate/no-default-export', `delegate ${ref} has no default export (the tool function)`, pointer);
    }
  }
  return { kind, ref: rel, file: rel };
}

function resolveInline(ref: string, pkg: Pkg, scope: FileScope, pointer: string, depth: number): ResolvedDelegate | null {
  if (depth > pkg.opts.limits.maxInlineDepth) {
    scope.error('delegate/inline-too-deep', `inline:// refs nest deeper than ${pkg.opts.limits.maxInlineDepth} levels`, pointer);
    return null;
  }
  const m = INLINE.exec(ref);
  if (!m) {
    scope.error('delegate/inline-invalid', 'an inline ref is inline://<code|markdown|base64>,<payload>', pointer);
    return null;
  }
  const [, tag, payload] = m;
  // The seed: "Escape \${ in YAML to prevent metadata interpolation" (base64 needs no escaping).
  if (depth === 0 && (tag === 'code' || tag === 'markdown') && /(^|[^\\])\$\{/.test(payload)) {
    scope.warn('delegate/unescaped-interpolation', 'inline delegate contains ${...}: write \\${ so metadata interpolation leaves it alone (or use inline://base64)', pointer);
  }
  if (tag === 'code') {
    const mod = parseTsModule(payload, 'inline.js', { maxDepth: pkg.opts.limits.maxDepth });
    if (mod.syntaxErrors.length) {
      scope.error('delegate/code-syntax', `inline code does not parse: ${mod.syntaxErrors[0].message}`, pointer);
      return null;
    }
    if (!mod.hasDefaultExport) scope.error('delegate/no-default-export', 'inline code must export a default async function', pointer);
    return { kind: 'inline-code', ref, file: null };
  }
  if (tag === 'markdown') {
    const md = readMarkdownSkill(payload, pkg, scope.embedded(pointer), { fallbackName: 'inline', fallbackFrom: 'file', agentApps: true });
    if (!md.fm) scope.error('delegate/markdown-invalid', 'the inline markdown delegate has no usable frontmatter', pointer);
    else if (md.fm.delegate) resolveDelegate(md.fm.delegate, pkg, scope, pointer, '', depth + 1);
    return { kind: 'markdown', ref, file: null };
  }
  if (tag === 'base64') {
    const clean = payload.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.length === 0) {
      scope.error('delegate/base64-invalid', 'inline://base64 payload is not base64', pointer);
      return null;
    }
    const decoded = Buffer.from(clean, clean.includes('-') || clean.includes('_') ? 'base64url' : 'base64').toString('utf8');
    if (!decoded.startsWith('inline://')) {
      scope.error('delegate/base64-invalid', 'inline://base64 must decode to another inline:// ref', pointer);
      return null;
    }
    // The manifest carries the decoded ref: the runtime never has to unwrap it again.
    return resolveInline(decoded, pkg, scope, pointer, depth + 1);
  }
  scope.error('delegate/inline-tag-unknown', `unknown inline tag "${tag}" (code, markdown or base64)`, pointer);
  return null;
}
