// The metadata of one Rye tool file, normalised across its source language: Python
// (dunders + CONFIG_SCHEMA), JS/TS (`export const`), YAML (fields), bash (`.sh`,
// metadata in the leading comment block). Read by parsing, never by running.

import { ptr, type FileScope, type LineMap } from '../../diagnostic-sink';
import type { LocatedParseError } from '../../located-json';
import { parseYamlLocated } from '../../located-yaml';
import { isPlainObject, type Pkg } from '../../package';
import { parsePythonModule } from '../../python-literal';
import { checkToolSchema } from '../../schema';
import { parseTsModule } from '../../ts-literal';
import { SIGNATURE_LINE } from '../../signature';
import { ryeParametersToSchema } from './parameters';

export type RyeKind = 'python' | 'yaml' | 'js' | 'ts' | 'bash';

export type RyeRecord = {
  rel: string;
  scope: FileScope;
  get(field: string): { present: boolean; value: unknown; path: string };
  params: Record<string, unknown> | null;
  kind: RyeKind;
  hasEntry: boolean;
};

/** Names of the params schema, in the order they are looked for. */
const SCHEMA_NAMES = ['CONFIG_SCHEMA', 'config_schema'];

/** Source name of a field: Python/JS dunders, the description's own name, CONFIG_RESOLVE. */
function dunder(f: string): string {
  return f === 'description' ? '__tool_description__' : f === 'config_resolve' ? 'CONFIG_RESOLVE' : `__${f}__`;
}

export function readRecord(pkg: Pkg, rel: string, text: string): RyeRecord | null {
  if (/\.py$/i.test(rel)) return readPython(pkg, rel, text);
  if (/\.(m?js|cjs|ts)$/i.test(rel)) return readScript(pkg, rel, text);
  if (/\.(sh|bash)$/i.test(rel)) return readShell(pkg, rel, text);
  return readYaml(pkg, rel, text);
}

function readPython(pkg: Pkg, rel: string, text: string): RyeRecord | null {
  const maxDepth = pkg.opts.limits.maxDepth;
  const scope0 = pkg.scope(rel);
  const mod = parsePythonModule(text, { maxDepth });
  if (mod.syntaxError) {
    scope0.error('python/syntax-error', mod.syntaxError.message, undefined, mod.syntaxError.line);
    return null;
  }
  const lines: LineMap = new Map();
  for (const [k, a] of mod.assignments) for (const [p, l] of a.lines) lines.set(ptr('', k) + p, l);
  for (const [k, l] of mod.nonLiteral) lines.set(ptr('', k), l);
  const scope = scope0.with(lines);
  for (const [k] of mod.nonLiteral) if (k.startsWith('__') || SCHEMA_NAMES.includes(k)) scope.error('rye/metadata-not-literal', `${k} must be a literal (metadata is read without running the file)`, ptr('', k));
  const field = (f: string) => {
    const py = dunder(f);
    const a = mod.assignments.get(py);
    return { present: !!a || mod.nonLiteral.has(py), value: a?.value, path: ptr('', py) };
  };
  for (const r of mod.executeReturns) {
    if (r.keys && !r.keys.includes('success')) scope.warn('rye/execute-return', 'execute() must return a dict with at least "success": bool', undefined, r.line);
  }
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: 'python', hasEntry: mod.functions.has('execute') || mod.functions.has('main') || mod.classes.size > 0 };
  if (!field('description').present && mod.docstring) {
    rec.get = (f) => (f === 'description' ? { present: false, value: mod.docstring!.trim().split('\n')[0], path: '/__tool_description__' } : field(f));
  }
  const csName = SCHEMA_NAMES.find((n) => mod.assignments.has(n));
  if (csName) rec.params = checkToolSchema(mod.assignments.get(csName)!.value, scope, ptr('', csName), { role: 'params', maxDepth });
  return rec;
}

function readScript(pkg: Pkg, rel: string, text: string): RyeRecord | null {
  const maxDepth = pkg.opts.limits.maxDepth;
  const scope0 = pkg.scope(rel);
  const mod = parseTsModule(text, rel, { maxDepth });
  for (const e of mod.syntaxErrors.slice(0, 3)) scope0.error('code/syntax-error', e.message, undefined, e.line);
  if (mod.syntaxErrors.length) return null;
  const lines: LineMap = new Map();
  for (const [k, e] of mod.exports) {
    lines.set(ptr('', k), e.line);
    if ('lines' in e) for (const [p, l] of e.lines) if (p) lines.set(ptr('', k) + p, l);
  }
  const scope = scope0.with(lines);
  for (const [k, e] of mod.exports) if ('nonLiteral' in e && (k.startsWith('__') || SCHEMA_NAMES.includes(k))) scope.error('rye/metadata-not-literal', `${k} must be a literal (metadata is read without running the file): ${e.nonLiteral}`, ptr('', k));
  const field = (f: string) => {
    const js = dunder(f);
    const e = mod.exports.get(js);
    return { present: !!e, value: e && 'value' in e ? e.value : undefined, path: ptr('', js) };
  };
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: /\.ts$/i.test(rel) ? 'ts' : 'js', hasEntry: mod.hasDefaultExport || mod.functions.has('main') || mod.functions.has('execute') };
  for (const n of SCHEMA_NAMES) {
    const cs = mod.exports.get(n);
    if (cs && 'value' in cs) {
      rec.params = checkToolSchema(cs.value, scope, ptr('', n), { role: 'params', maxDepth });
      break;
    }
  }
  return rec;
}

function readYaml(pkg: Pkg, rel: string, text: string): RyeRecord | null {
  const maxDepth = pkg.opts.limits.maxDepth;
  const scope0 = pkg.scope(rel);
  let parsed;
  try {
    parsed = parseYamlLocated(text, { maxAliasCount: pkg.opts.limits.maxYamlAliasCount, maxDepth });
  } catch (e) {
    const err = e as LocatedParseError;
    scope0.error(err.code === 'depth' ? 'yaml/limit-exceeded' : 'yaml/invalid', err.message, undefined, err.line);
    return null;
  }
  const scope = scope0.with(parsed.lines);
  for (const w of parsed.warnings) scope.warn(w.code === 'yaml/quoted-multiline' ? 'yaml/quoted-multiline' : 'yaml/warning', w.message, undefined, w.line);
  const doc = parsed.value;
  if (!isPlainObject(doc)) {
    scope.error('rye/yaml-not-mapping', 'a YAML tool must be a mapping of fields (tool_id, tool_type, version, ...)', '');
    return null;
  }
  const field = (f: string) => ({ present: Object.prototype.hasOwnProperty.call(doc, f), value: doc[f], path: ptr('', f) });
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: 'yaml', hasEntry: true };
  const schemaKey = ['input_schema', 'config_schema'].find((k) => doc[k] !== undefined);
  if (schemaKey) {
    if (doc.parameters !== undefined) scope.warn('tool/params-conflict', `both parameters and ${schemaKey} are set; ${schemaKey} is used`, '/parameters');
    rec.params = checkToolSchema(doc[schemaKey], scope, ptr('', schemaKey), { role: 'params', maxDepth });
  } else if (doc.parameters !== undefined) {
    const conv = ryeParametersToSchema(doc.parameters, scope, '/parameters');
    rec.params = conv ? checkToolSchema(conv, scope, '/parameters', { role: 'params', maxDepth }) : null;
  }
  return rec;
}

/**
 * Bash tools: the leading comment block carries the metadata, either as Python-style
 * dunders (`# __version__ = "1.0.0"`) or as `# key: value` lines (version, tool_type,
 * executor_id, category, description, config_schema as one line of JSON). The first
 * other comment line is the description when none is given.
 */
function readShell(pkg: Pkg, rel: string, text: string): RyeRecord {
  const lines: LineMap = new Map();
  const values = new Map<string, unknown>();
  let summary: string | null = null;
  const src = text.split('\n');
  for (let i = 0; i < src.length && i < 200; i++) {
    const l = src[i].trim();
    if (i === 0 && l.startsWith('#!')) continue;
    if (SIGNATURE_LINE.test(l)) continue;
    if (l === '') continue;
    if (!l.startsWith('#')) break;
    const body = l.replace(/^#+\s?/, '');
    const d = /^__([a-z_]+)__\s*=\s*(.+)$/.exec(body) ?? /^(tool_type|version|executor_id|category|description|tool_description|requires|timeout|tags|config_schema)\s*:\s*(.+)$/.exec(body);
    if (d) {
      const key = d[1] === 'tool_description' ? 'description' : d[1];
      values.set(key, shellValue(d[2].trim()));
      lines.set(ptr('', key), i + 1);
    } else if (summary === null && body.trim()) summary = body.trim();
  }
  const scope = pkg.scope(rel).with(lines);
  const defaults: Record<string, unknown> = { tool_type: 'bash', executor_id: 'subprocess' };
  const missing = ['version', 'category', 'description'].filter((k) => !values.has(k) && !(k === 'description' && summary));
  if (missing.length) scope.warn('rye/shell-metadata-missing', `a bash tool should declare ${missing.map((k) => `# __${k === 'description' ? 'tool_description' : k}__ = "..."`).join(', ')} in its leading comments`, undefined, 1);
  const rec: RyeRecord = {
    rel,
    scope,
    kind: 'bash',
    hasEntry: true,
    params: null,
    get: (f) => {
      if (values.has(f)) return { present: true, value: values.get(f), path: ptr('', f) };
      if (f === 'description') return { present: true, value: summary ?? undefined, path: '/description' };
      if (f === 'category') return { present: true, value: undefined, path: '/category' };
      if (f === 'version') return { present: true, value: undefined, path: '/version' };
      if (f in defaults) return { present: true, value: defaults[f], path: ptr('', f) };
      return { present: false, value: undefined, path: ptr('', f) };
    },
  };
  const cs = values.get('config_schema');
  if (cs !== undefined) rec.params = checkToolSchema(cs, scope, '/config_schema', { role: 'params', maxDepth: pkg.opts.limits.maxDepth });
  return rec;
}

function shellValue(raw: string): unknown {
  const s = raw.replace(/\s+#.*$/, '');
  if (/^["'].*["']$/.test(s)) return s.slice(1, -1);
  if (/^[[{]/.test(s)) {
    try {
      return JSON.parse(s);
    } catch {
      return s;
    }
  }
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  if (s === 'None' || s === 'null') return null;
  return s;
}
