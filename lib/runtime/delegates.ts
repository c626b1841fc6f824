// `inline://<tag>,<payload>` delegates: code (an ES module), markdown (a context tool),
// base64 (decodes to another inline:// ref, recursively). Anything else is a package path.

import { RuntimeError } from './errors';

export type Delegate = { kind: 'code'; source: string; ref: string } | { kind: 'markdown'; markdown: string; ref: string } | { kind: 'path'; path: string };

const MAX_BASE64_DEPTH = 8;

export function isInlineRef(ref: string): boolean {
  return ref.startsWith('inline://');
}

export function parseDelegate(ref: string, depth = 0): Delegate {
  if (!isInlineRef(ref)) return { kind: 'path', path: ref.replace(/^\.\//, '') };
  const comma = ref.indexOf(',');
  if (comma < 0) throw new RuntimeError('runtime/unsupported-handler', `inline delegate has no payload: ${ref.slice(0, 40)}`);
  const tag = ref.slice('inline://'.length, comma);
  const payload = ref.slice(comma + 1);
  switch (tag) {
    case 'code':
      // The seed escapes `\${` in YAML against metadata interpolation; the code itself means `${`.
      return { kind: 'code', source: payload.replace(/\\\$\{/g, '${'), ref };
    case 'markdown':
      return { kind: 'markdown', markdown: payload, ref };
    case 'base64': {
      if (depth >= MAX_BASE64_DEPTH) {
        throw new RuntimeError('runtime/unsupported-handler', `inline://base64 nested more than ${MAX_BASE64_DEPTH} levels`);
      }
      const clean = payload.replace(/\s+/g, '');
      const decoded = Buffer.from(clean, /[-_]/.test(clean) ? 'base64url' : 'base64').toString('utf8');
      if (!isInlineRef(decoded)) {
        throw new RuntimeError('runtime/unsupported-handler', 'inline://base64 must decode to another inline:// ref');
      }
      const inner = parseDelegate(decoded, depth + 1);
      // Cache keys stay the full outer ref so two spellings of one payload never collide with others.
      return inner.kind === 'path' ? inner : { ...inner, ref };
    }
    default:
      throw new RuntimeError('runtime/unsupported-handler', `unknown inline delegate tag '${tag}' (expected code, markdown or base64)`);
  }
}

/** The markdown body with its YAML frontmatter removed. */
export function markdownBody(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.exec(text);
  return (m ? text.slice(m[0].length) : text).replace(/^\s*\n/, '');
}
