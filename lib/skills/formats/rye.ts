// Rye OS tools under .ai/tools/**: Python (dunder metadata + CONFIG_SCHEMA +
// execute), YAML (tool_id, parameters list, input_schema, MCP tool and server defs),
// and JS/TS (`export const __dunder__`). One package (the folder holding .ai/) is one
// skill whose tools are the callable Rye tools; libraries, runtimes, primitives and
// MCP server definitions are recorded under metadata.rye.components.

import { createHash } from 'node:crypto';
import { ptr, type FileScope, type LineMap } from '../diagnostic-sink';
import { LocatedParseError } from '../located-json';
import { parseYamlLocated } from '../located-yaml';
import { canonicalToolName, isSemver, isValidToolName, nameFromPath, normalizeTags } from '../names';
import { isPlainObject, newManifest, newTool, type Pkg } from '../package';
import { parsePythonModule } from '../python-literal';
import { checkToolSchema } from '../schema';
import { parseTsModule } from '../ts-literal';
import type { SkillManifest, SkillSignature, ToolManifest } from '../types';
import { readmeSummary } from './readme';
import { verifyFileSignature } from './signed-file';

export const RYE_TOOLS_DIR = '.ai/tools/';
const TOOL_FILE = /\.(py|ya?ml|m?js|cjs|ts)$/i;
const KNOWN_TYPES = new Set(['python', 'script', 'mcp', 'mcp_server', 'primitive', 'runtime', 'library', 'yaml', 'http', 'javascript', 'typescript', 'node', 'bash']);
const NULL_EXECUTOR_OK = new Set(['primitive', 'runtime', 'library', 'mcp_server']);
const COMPONENT_TYPES = NULL_EXECUTOR_OK;
const PARAM_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const REQUIRES = /^[a-z0-9_-]+(\.[a-z0-9_*-]+)+$/;

/** Metadata of one Rye file, normalised across the three source languages. */
type RyeRecord = {
  rel: string;
  scope: FileScope;
  get(field: string): { present: boolean; value: unknown; path: string };
  params: Record<string, unknown> | null;
  kind: 'python' | 'yaml' | 'js' | 'ts';
  hasEntry: boolean;
};

export function isRyeToolFile(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return rel.startsWith(RYE_TOOLS_DIR) && TOOL_FILE.test(base) && !base.startsWith('_') && !/\.d\.ts$/i.test(base);
}

export function readRye(pkg: Pkg): SkillManifest {
  const m = newManifest(nameFromPath(pkg.dirName ?? 'unnamed'), 'rye');
  m.files = pkg.fileList();
  const toolFiles = m.files.filter(isRyeToolFile);
  const ryeTools: Record<string, unknown> = {};
  const components: Record<string, unknown> = {};
  const signatures: Record<string, SkillSignature> = {};
  const versions = new Set<string>();
  for (const rel of toolFiles) {
    const text = pkg.readText(rel);
    if (text === null) continue;
    const sig = verifyFileSignature(text, pkg, rel);
    if (sig) signatures[rel] = sig;
    const rec = readRecord(pkg, rel, text);
    if (!rec) continue;
    const out = toTool(pkg, rec);
    if (!out) continue;
    if (out.version) versions.add(out.version);
    if (out.component) {
      components[out.id] = out.info;
      continue;
    }
    const tool = out.tool!;
    if (m.tools.some((t) => t.name === tool.name)) {
      rec.scope.error('tool/duplicate-name', `another Rye tool in this package is also named "${tool.name}"`, undefined, 1);
      continue;
    }
    m.tools.push(tool);
    ryeTools[tool.name] = out.info;
  }
  if (toolFiles.length === 0) pkg.scope('.ai/tools').error('rye/no-tools', 'the .ai/tools folder holds no tool files (.py, .yaml, .js, .ts)');
  // MCP tools must point at a server definition in this package.
  for (const t of m.tools) {
    if (t.handler.kind !== 'mcp' || !t.handler.ref) continue;
    const server = t.handler.ref.split('#')[0];
    if (!components[server]) {
      const info = ryeTools[t.name] as { file: string };
      pkg.scope(info.file).warn('rye/mcp-server-not-found', `MCP server definition ${server} is not in this package (.ai/tools/${server}.yaml)`, '/config/server');
    }
  }
  m.metadata = { rye: { tools: ryeTools, ...(Object.keys(components).length ? { components } : {}), ...(Object.keys(signatures).length ? { signatures } : {}) } };
  m.version = versions.size === 1 ? [...versions][0] : null;
  m.description = readmeSummary(pkg) ?? readmeSummary(pkg, '.ai/README.md') ?? (m.tools.length === 1 ? m.tools[0].description : m.tools.length ? `Rye tools: ${m.tools.map((t) => t.name).join(', ')}` : '');
  m.signature = combineSignatures(signatures, toolFiles.length);
  return m;
}

/** One signature for the package: a lone signed file's, or an aggregate of all files. */
function combineSignatures(sigs: Record<string, SkillSignature>, fileCount: number): SkillSignature | null {
  const list = Object.entries(sigs).sort(([a], [b]) => a.localeCompare(b));
  if (list.length === 0) return null;
  if (list.length === 1 && fileCount === 1) return list[0][1];
  const all = list.map(([, s]) => s);
  const keyIds = new Set(all.map((s) => s.keyId));
  const unsigned = fileCount - list.length;
  const verified = all.some((s) => s.verified === false) ? false : unsigned === 0 && all.every((s) => s.verified === true) ? true : null;
  const reasons = list.filter(([, s]) => s.verified !== true).map(([p, s]) => `${p}: ${s.reason ?? 'not verified'}`);
  if (unsigned) reasons.push(`${unsigned} tool file(s) unsigned`);
  return {
    timestamp: all.map((s) => s.timestamp).sort().pop()!,
    hash: createHash('sha256').update(list.map(([p, s]) => `${p}:${s.hash}`).join('\n')).digest('hex'),
    signature: all.length === 1 ? all[0].signature : 'multiple',
    keyId: keyIds.size === 1 ? [...keyIds][0] : 'multiple',
    verified,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  };
}

function readRecord(pkg: Pkg, rel: string, text: string): RyeRecord | null {
  const scope0 = pkg.scope(rel);
  const maxDepth = pkg.opts.limits.maxDepth;
  if (/\.py$/i.test(rel)) {
    const mod = parsePythonModule(text, { maxDepth });
    if (mod.syntaxError) {
      scope0.error('python/syntax-error', mod.syntaxError.message, undefined, mod.syntaxError.line);
      return null;
    }
    const lines: LineMap = new Map();
    for (const [k, a] of mod.assignments) for (const [p, l] of a.lines) lines.set(ptr('', k) + p, l);
    for (const [k, l] of mod.nonLiteral) lines.set(ptr('', k), l);
    const scope = scope0.with(lines);
    for (const [k] of mod.nonLiteral) if (k.startsWith('__') || k === 'CONFIG_SCHEMA') scope.error('rye/metadata-not-literal', `${k} must be a literal (metadata is read without running the file)`, ptr('', k));
    const field = (f: string) => {
      const py = f === 'description' ? '__tool_description__' : f === 'config_resolve' ? 'CONFIG_RESOLVE' : `__${f}__`;
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
    const cs = mod.assignments.get('CONFIG_SCHEMA');
    if (cs) rec.params = checkToolSchema(cs.value, scope, '/CONFIG_SCHEMA', { role: 'params', maxDepth });
    return rec;
  }
  if (/\.(m?js|cjs|ts)$/i.test(rel)) {
    const mod = parseTsModule(text, rel, { maxDepth });
    for (const e of mod.syntaxErrors.slice(0, 3)) scope0.error('code/syntax-error', e.message, undefined, e.line);
    if (mod.syntaxErrors.length) return null;
    const lines: LineMap = new Map();
    for (const [k, e] of mod.exports) {
      lines.set(ptr('', k), e.line);
      if ('lines' in e) for (const [p, l] of e.lines) if (p) lines.set(ptr('', k) + p, l);
    }
    const scope = scope0.with(lines);
    for (const [k, e] of mod.exports) if ('nonLiteral' in e && (k.startsWith('__') || k === 'CONFIG_SCHEMA')) scope.error('rye/metadata-not-literal', `${k} must be a literal (metadata is read without running the file): ${e.nonLiteral}`, ptr('', k));
    const field = (f: string) => {
      const js = f === 'description' ? '__tool_description__' : f === 'config_resolve' ? 'CONFIG_RESOLVE' : `__${f}__`;
      const e = mod.exports.get(js);
      return { present: !!e, value: e && 'value' in e ? e.value : undefined, path: ptr('', js) };
    };
    const rec: RyeRecord = { rel, scope, get: field, params: null, kind: /\.ts$/i.test(rel) ? 'ts' : 'js', hasEntry: mod.hasDefaultExport || mod.functions.has('main') || mod.functions.has('execute') };
    const cs = mod.exports.get('CONFIG_SCHEMA');
    if (cs && 'value' in cs) rec.params = checkToolSchema(cs.value, scope, '/CONFIG_SCHEMA', { role: 'params', maxDepth });
    return rec;
  }
  // YAML
  let parsed;
  try {
    parsed = parseYamlLocated(text, { maxAliasCount: pkg.opts.limits.maxYamlAliasCount, maxDepth });
  } catch (e) {
    const err = e as LocatedParseError;
    scope0.error(err.code === 'depth' ? 'yaml/limit-exceeded' : 'yaml/invalid', err.message, undefined, err.line);
    return null;
  }
  const scope = scope0.with(parsed.lines);
  const doc = parsed.value;
  if (!isPlainObject(doc)) {
    scope.error('rye/yaml-not-mapping', 'a YAML tool must be a mapping of fields (tool_id, tool_type, version, ...)', '');
    return null;
  }
  const field = (f: string) => {
    const k = f === 'description' ? 'description' : f === 'tool_type' ? 'tool_type' : f === 'executor_id' ? 'executor_id' : f;
    return { present: Object.prototype.hasOwnProperty.call(doc, k), value: doc[k], path: ptr('', k) };
  };
  const rec: RyeRecord = { rel, scope, get: field, params: null, kind: 'yaml', hasEntry: true };
  if (doc.input_schema !== undefined) {
    if (doc.parameters !== undefined) scope.warn('tool/params-conflict', 'both parameters and input_schema are set; input_schema is used', '/parameters');
    rec.params = checkToolSchema(doc.input_schema, scope, '/input_schema', { role: 'params', maxDepth });
  } else if (doc.parameters !== undefined) {
    const conv = ryeParametersToSchema(doc.parameters, scope, '/parameters');
    rec.params = conv ? checkToolSchema(conv, scope, '/parameters', { role: 'params', maxDepth }) : null;
  }
  return rec;
}

/** Rye `parameters` list -> JSON Schema; required only with `required: true` (SPEC 7). */
export function ryeParametersToSchema(list: unknown, scope: FileScope, at: string): Record<string, unknown> | null {
  if (!Array.isArray(list)) {
    scope.error('rye/parameters-invalid', 'parameters must be a list of { name, type, required, description }', at);
    return null;
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  list.forEach((p, i) => {
    const pp = ptr(at, i);
    if (!isPlainObject(p)) return scope.error('param/invalid', 'each parameter must be a mapping', pp);
    if (typeof p.name !== 'string' || !p.name) return scope.error('rye/param-name-missing', 'parameter has no name', pp);
    if (Object.prototype.hasOwnProperty.call(properties, p.name)) return scope.error('rye/param-duplicate', `parameter "${p.name}" is declared twice`, ptr(pp, 'name'));
    if (p.type === undefined) scope.error('param/type-missing', `parameter "${p.name}" has no type`, pp);
    else if (typeof p.type !== 'string' || !PARAM_TYPES.has(p.type)) scope.error('param/type-invalid', `parameter "${p.name}" has type ${JSON.stringify(p.type)}; it must be a JSON Schema type`, ptr(pp, 'type'));
    if (p.required !== undefined && typeof p.required !== 'boolean') scope.error('param/required-invalid', 'required must be true or false', ptr(pp, 'required'));
    if (typeof p.description !== 'string' || !p.description.trim()) scope.warn('param/description-missing', `parameter "${p.name}" has no description`, pp);
    const { name, required: req, ...rest } = p;
    properties[name as string] = rest;
    if (req === true) required.push(name as string);
  });
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

type ToolOut = { component: boolean; id: string; info: Record<string, unknown>; tool?: ToolManifest; version: string | null };

function toTool(pkg: Pkg, rec: RyeRecord): ToolOut | null {
  const { scope, rel } = rec;
  const inTools = rel.slice(RYE_TOOLS_DIR.length);
  const expectedCategory = inTools.includes('/') ? inTools.slice(0, inTools.lastIndexOf('/')) : '';
  const base = inTools.split('/').pop()!;
  const stem = base.replace(TOOL_FILE, '');
  const get = rec.get;

  const required = rec.kind === 'yaml' ? ['tool_type', 'version', 'description', 'category'] : ['version', 'tool_type', 'category', 'description'];
  for (const f of required) {
    const v = get(f);
    if (!v.present) {
      const label = rec.kind === 'python' || rec.kind === 'js' || rec.kind === 'ts' ? (f === 'description' ? '__tool_description__' : `__${f}__`) : f;
      scope.error('rye/field-missing', `${label} is required`, undefined, 1);
    } else if (v.value !== undefined && typeof v.value !== 'string' && !(f === 'version' && typeof v.value === 'number')) {
      scope.error('rye/field-invalid', `${v.path.slice(1)} must be a string`, v.path);
    }
  }
  const toolType = typeof get('tool_type').value === 'string' ? (get('tool_type').value as string) : null;
  if (toolType && !KNOWN_TYPES.has(toolType)) scope.warn('rye/tool-type-unknown', `unknown tool type "${toolType}"`, get('tool_type').path);

  const ex = get('executor_id');
  let executor: string | null = null;
  if (!ex.present) scope.error('rye/executor-missing', `${rec.kind === 'yaml' ? 'executor_id' : '__executor_id__'} is required (the runtime that runs this tool; null only for primitive, runtime, library and mcp_server)`, undefined, 1);
  else if (ex.value === null || ex.value === undefined) {
    if (ex.value === null && toolType && !NULL_EXECUTOR_OK.has(toolType)) scope.error('rye/executor-null', `executor_id may be null only for primitive, runtime, library and mcp_server tools, not "${toolType}"`, ex.path);
  } else if (typeof ex.value === 'string') executor = ex.value;
  else scope.error('rye/field-invalid', 'executor_id must be a string or null', ex.path);

  const verRaw = get('version').value;
  const version = typeof verRaw === 'number' ? String(verRaw) : typeof verRaw === 'string' ? verRaw : null;
  if (version !== null && !isSemver(version)) scope.error('version/not-semver', `version "${version}" must be semantic versioning (X.Y.Z)`, get('version').path);

  const cat = get('category').value;
  if (typeof cat === 'string' && cat.replace(/^\/+|\/+$/g, '') !== expectedCategory) {
    scope.error('rye/category-mismatch', `category "${cat}" must match the file's folder under .ai/tools ("${expectedCategory}")`, get('category').path);
  }

  // Name: YAML by tool_id, Python/JS/TS by file stem (SPEC 7).
  let sourceName = stem;
  if (rec.kind === 'yaml') {
    const tid = get('tool_id');
    if (!tid.present) {
      if (toolType !== 'mcp_server') scope.warn('rye/tool-id-missing', `tool_id is missing; the file name "${stem}" is used`, undefined, 1);
    } else if (typeof tid.value !== 'string' || !tid.value) scope.error('rye/tool-id-invalid', 'tool_id must be a string', tid.path);
    else {
      sourceName = tid.value;
      const last = tid.value.split('/').pop()!;
      const prefix = tid.value.includes('/') ? tid.value.slice(0, tid.value.lastIndexOf('/')) : null;
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(last)) scope.error('rye/tool-id-invalid', `tool_id "${tid.value}" must be kebab-case alphanumeric`, tid.path);
      else if (last.includes('_')) scope.warn('rye/tool-id-not-kebab', `tool_id "${tid.value}" should be kebab-case; its ref is "${canonicalToolName(last)}"`, tid.path);
      if (prefix !== null && prefix !== expectedCategory) scope.warn('rye/tool-id-category', `tool_id prefix "${prefix}" differs from the category folder "${expectedCategory}"`, tid.path);
    }
  }
  const last = sourceName.split('/').pop()!;
  const name = canonicalToolName(last);
  const id = expectedCategory ? `${expectedCategory}/${stem}` : stem;
  const descV = get('description').value;
  const description = typeof descV === 'string' ? descV.trim() : '';
  const info: Record<string, unknown> = { file: rel, toolId: id, toolType, category: typeof cat === 'string' ? cat : null };

  const yamlDoc = rec.kind === 'yaml' ? (k: string) => get(k).value : () => undefined;
  const config = rec.kind === 'yaml' ? yamlDoc('config') : undefined;
  if (config !== undefined) info.config = config;
  if (toolType && COMPONENT_TYPES.has(toolType)) {
    if (toolType === 'mcp_server') {
      if (!isPlainObject(config) || (typeof config.url !== 'string' && typeof config.command !== 'string')) scope.error('rye/mcp-config-missing', 'an MCP server needs config.url (http) or config.command (stdio)', '/config');
    }
    return { component: true, id, info, version };
  }

  if (!isValidToolName(name)) {
    scope.error('tool/name-invalid', `tool name "${last}" cannot become a tool ref (a-z, 0-9, '-')`, undefined, 1);
    return null;
  }
  const tool = newTool(name, sourceName);
  tool.description = description;
  tool.params = rec.params;
  tool.executor = executor;

  // requires -> capabilities
  const reqs = rec.kind === 'yaml' ? yamlDoc('requires') : get('requires').value;
  if (reqs !== undefined) {
    if (!Array.isArray(reqs) || reqs.some((r) => typeof r !== 'string')) scope.error('rye/requires-invalid', 'requires must be a list of capability strings', get('requires').path);
    else {
      for (const r of reqs as string[]) if (!REQUIRES.test(r)) scope.warn('rye/requires-invalid', `requires entry "${r}" should use dotted notation (fs.write, net.http)`, get('requires').path);
      tool.capabilities = [...new Set(reqs as string[])];
    }
  }
  const tags = get('tags').value;
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) tool.tags = normalizeTags(tags);
  else if (tags !== undefined) scope.error('metadata/tags-invalid', 'tags must be a list of strings', get('tags').path);
  const timeout = get('timeout').value;
  if (typeof timeout === 'number' && timeout > 0) tool.timeoutMs = Math.round(timeout * 1000);
  else if (timeout !== undefined) scope.error('tool/timeout-invalid', 'timeout must be a positive number of seconds', get('timeout').path);

  if (rec.kind === 'yaml') {
    const out = yamlDoc('output_schema') ?? yamlDoc('outputs');
    if (out !== undefined) tool.returns = checkToolSchema(out, scope, get('output_schema').present ? '/output_schema' : '/outputs', { role: 'returns', maxDepth: pkg.opts.limits.maxDepth });
    if (toolType === 'mcp') {
      if (!isPlainObject(config) || typeof config.server !== 'string' || typeof config.tool_name !== 'string') {
        scope.error('rye/mcp-config-missing', 'an MCP tool needs config.server and config.tool_name', '/config');
      } else tool.handler = { kind: 'mcp', ref: `${config.server}#${config.tool_name}` };
      if (!tool.capabilities.includes('net')) tool.capabilities.push('net');
    } else if (isPlainObject(config) && typeof config.command === 'string') {
      // subprocess tools run a command with args; a script argument is the handler
      const args = Array.isArray(config.args) ? config.args.filter((a): a is string => typeof a === 'string') : [];
      const script = args.find((a) => /\.(py|sh|m?js|ts)$/i.test(a));
      tool.handler = { kind: script?.endsWith('.py') || /python/.test(config.command) ? 'python' : 'bash', ref: script ?? config.command };
    }
    for (const k of ['retry_policy', 'cost', 'documentation', 'actions', 'metadata']) if (yamlDoc(k) !== undefined) info[k] = yamlDoc(k);
  } else {
    tool.handler = { kind: rec.kind, ref: rel };
    if (!rec.hasEntry) scope.error('rye/execute-missing', rec.kind === 'python' ? 'a Python tool must define execute(params, project_path)' : 'a JS/TS tool must export a default function (or main/execute)', undefined, 1);
    const cr = get('config_resolve');
    if (cr.present) info.configResolve = cr.value;
  }
  if (tool.capabilities.some((c) => c.startsWith('net.') || c === 'net') && !tool.capabilities.includes('net')) tool.capabilities.push('net');
  return { component: false, id, info, tool, version };
}
