// The metadata of one Rye tool file, normalised across its source language: Python
// (dunders + CONFIG_SCHEMA, or the current dialect's `# ryeos-tool:` comment header),
// JS/TS (`export const`), YAML (fields), bash (`.sh`, metadata in the leading comment
// block). Read by parsing, never by running.
//
// Two dialects: the seed's (`rye:signed:`, tool_id/tool_type/dunders) and the current
// Rye OS one (`ryeos:signed:`, `name`, `required_caps`, `execution_protocol`,
// `config_schema`, Python metadata in a `# ryeos-tool:` header). The dialect is decided
// per file; tool.ts applies each dialect's rules.

import { ptr, type FileScope, type LineMap } from '../../diagnostic-sink';
import type { LocatedParseError } from '../../located-json';
import { parseYamlLocated } from '../../located-yaml';
import { isPlainObject, type Pkg } from '../../package';
import { parsePythonModule } from '../../python-literal';
import { checkToolSchema } from '../../schema';
import { parseTsModule } from '../../ts-literal';
import { findSignature, SIGNATURE_LINE } from '../../signature';
import { ryeParametersToSchema } from './parameters';

export type RyeKind = 'python' | 'yaml' | 'js' | 'ts' | 'bash';
/** `rye`: the seed's dialect (rye-tool-format.md); `ryeos`: the current Rye OS dialect */
export type RyeDialect = 'rye' | 'ryeos';

export type RyeRecord = {
  rel: string;
  scope: FileScope;
  get(field: string): { present: boolean; value: unknown; path: string };
  params: Record<string, unknown> | null;
  kind: RyeKind;
  /** an entry point: Python `def execute` at module level or a class with an `execute` method; JS/TS a default export (or main/execute) */
  hasEntry: boolean;
  dialect: RyeDialect;
  /** the fields as written (a YAML tool's mapping, a `# ryeos-tool:` header), when there is such a mapping */
  fields?: Record<string, unknown>;
};

/** Fields only the current Rye OS dialect has. */
const RYEOS_ONLY = ['required_caps', 'execution_protocol'];

function signedDialect(text: string): RyeDialect | null {
  const f = findSignature(text);
  return f && 'signature' in f ? f.signature.dialect : null;
}

/**
 * The dialect of a YAML tool: its signature's (`rye:signed:` the seed's, `ryeos:signed:`
 * the current one); unsigned, `ryeos` when it has a field only the current dialect has
 * (`required_caps`, `execution_protocol`), or names itself with `name` and an
 * `executor_id` but has no `tool_id`.
 */
function yamlDialect(text: string, doc: Record<string, unknown>): RyeDialect {
  const signed = signedDialect(text);
  if (signed) return signed;
  if (RYEOS_ONLY.some((k) => Object.prototype.hasOwnProperty.call(doc, k))) return 'ryeos';
  if (doc.name !== undefined && doc.executor_id !== undefined && doc.tool_id === undefined) return 'ryeos';
  return 'rye';
}

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
  const header = readToolHeader(pkg, rel, text, lines);
  if (header === 'invalid') return null;
  const scope = scope0.with(lines);
  for (const [k] of mod.nonLiteral) if (k.startsWith('__') || SCHEMA_NAMES.includes(k)) scope.error('rye/metadata-not-literal', `${k} must be a literal (metadata is read without running the file)`, ptr('', k));
  const dunderField = (f: string) => {
    const py = dunder(f);
    const a = mod.assignments.get(py);
    return { present: !!a || mod.nonLiteral.has(py), value: a?.value, path: ptr('', py) };
  };
  // The header's fields win over dunders; a dunder fills what the header leaves out.
  const field = header ? (f: string) => (Object.prototype.hasOwnProperty.call(header, f) ? { present: true, value: header[f], path: ptr('', f) } : dunderField(f)) : dunderField;
  const dialect: RyeDialect = header || signedDialect(text) === 'ryeos' ? 'ryeos' : 'rye';
  // Rule 11 is the seed's: the current dialect's runtimes read other shapes ({"ok": ...}).
  if (dialect === 'rye') {
    for (const r of mod.executeReturns) {
      if (r.keys && !r.keys.includes('success')) scope.warn('rye/execute-return', 'execute() must return a dict with at least "success": bool', undefined, r.line);
    }
  }
  const hasEntry = mod.functions.has('execute') || mod.classesWithExecute.size > 0;
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: 'python', hasEntry, dialect, ...(header ? { fields: header } : {}) };
  if (!field('description').present && mod.docstring) {
    rec.get = (f) => (f === 'description' ? { present: false, value: mod.docstring!.trim().split('\n')[0], path: '/__tool_description__' } : field(f));
  }
  if (header && header.config_schema !== undefined) rec.params = checkToolSchema(header.config_schema, scope, '/config_schema', { role: 'params', maxDepth });
  else {
    const csName = SCHEMA_NAMES.find((n) => mod.assignments.has(n));
    if (csName) rec.params = checkToolSchema(mod.assignments.get(csName)!.value, scope, ptr('', csName), { role: 'params', maxDepth });
  }
  return rec;
}

const HEADER_MARKER = /^#(\s*)ryeos-tool:/;

/**
 * The current dialect's Python metadata: a `# ryeos-tool:` comment whose following
 * comment lines are YAML (`#   category: ...`), in the file's prologue (after an
 * optional shebang, signature lines, other comments and blank lines; before any code).
 * The header ends at the first line that is not a comment or whose comment text is not
 * indented below the marker. Its locations go into `lines` as `/<field>`. Returns null
 * when there is no header, 'invalid' when it cannot be read (reported).
 */
function readToolHeader(pkg: Pkg, rel: string, text: string, lines: LineMap): Record<string, unknown> | null | 'invalid' {
  const src = text.split('\n');
  let start = -1;
  for (let i = 0; i < src.length && i < 100; i++) {
    const l = src[i].replace(/\r$/, '');
    if (HEADER_MARKER.test(l)) {
      start = i;
      break;
    }
    if (l.trim() === '' || l.startsWith('#')) continue;
    break;
  }
  if (start < 0) return null;
  const markerIndent = HEADER_MARKER.exec(src[start])![1].length;
  const body: string[] = [src[start].replace(/\r$/, '').slice(1)];
  for (let i = start + 1; i < src.length; i++) {
    const l = src[i].replace(/\r$/, '');
    if (!l.startsWith('#')) break;
    const b = l.slice(1);
    if (b.trim() !== '' && b.length - b.trimStart().length <= markerIndent) break;
    body.push(b);
  }
  const scope = pkg.scope(rel);
  let parsed;
  try {
    parsed = parseYamlLocated(body.join('\n'), { maxAliasCount: pkg.opts.limits.maxYamlAliasCount, maxDepth: pkg.opts.limits.maxDepth, unquotedColons: false });
  } catch (e) {
    const err = e as LocatedParseError;
    scope.error(err.code === 'depth' ? 'yaml/limit-exceeded' : 'yaml/invalid', `the # ryeos-tool: header is not valid YAML: ${err.message}`, undefined, err.line + start);
    return 'invalid';
  }
  const doc = isPlainObject(parsed.value) ? parsed.value['ryeos-tool'] : undefined;
  if (!isPlainObject(doc)) {
    scope.error('rye/yaml-not-mapping', 'the # ryeos-tool: header must be a mapping of fields (category, version, description, executor_id, ...)', undefined, start + 1);
    return 'invalid';
  }
  for (const w of parsed.warnings) scope.warn(w.code ?? 'yaml/warning', w.message, undefined, w.line + start);
  for (const [p, l] of parsed.lines) if (p.startsWith('/ryeos-tool/')) lines.set(p.slice('/ryeos-tool'.length), l + start);
  return doc;
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
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: /\.ts$/i.test(rel) ? 'ts' : 'js', hasEntry: mod.hasDefaultExport || mod.functions.has('main') || mod.functions.has('execute'), dialect: signedDialect(text) ?? 'rye' };
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
    parsed = parseYamlLocated(text, { maxAliasCount: pkg.opts.limits.maxYamlAliasCount, maxDepth, unquotedColons: false });
  } catch (e) {
    const err = e as LocatedParseError;
    scope0.error(err.code === 'depth' ? 'yaml/limit-exceeded' : 'yaml/invalid', err.message, undefined, err.line);
    return null;
  }
  const scope = scope0.with(parsed.lines);
  for (const w of parsed.warnings) scope.warn(w.code ?? 'yaml/warning', w.message, undefined, w.line);
  const doc = parsed.value;
  if (!isPlainObject(doc)) {
    scope.error('rye/yaml-not-mapping', 'a YAML tool must be a mapping of fields (tool_id, tool_type, version, ...)', '');
    return null;
  }
  const field = (f: string) => ({ present: Object.prototype.hasOwnProperty.call(doc, f), value: doc[f], path: ptr('', f) });
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: 'yaml', hasEntry: true, dialect: yamlDialect(text, doc), fields: doc };
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
    dialect: signedDialect(text) ?? 'rye',
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
