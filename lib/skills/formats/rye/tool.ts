// One Rye record -> a tool (or a component: mcp_server, library, runtime, primitive).
// A Rye tool's identity is its category path plus its name (SPEC 7: YAML tools by
// tool_id, the others by file stem; in the current Rye OS dialect by `name`).

import { isPlainObject, newTool, type Pkg } from '../../package';
import { canonicalToolName, isSemver, isValidToolName, normalizeTags } from '../../names';
import { checkToolSchema } from '../../schema';
import type { ToolManifest } from '../../types';
import type { RyeRecord } from './record';

export const RYE_TOOLS_DIR = '.ai/tools/';
export const TOOL_FILE = /\.(py|ya?ml|m?js|cjs|ts|sh|bash)$/i;
const KNOWN_TYPES = new Set(['python', 'script', 'mcp', 'mcp_server', 'primitive', 'runtime', 'library', 'yaml', 'http', 'javascript', 'typescript', 'node', 'bash', 'shell', 'extractor', 'parser', 'sink']);
const NULL_EXECUTOR_OK = new Set(['primitive', 'runtime', 'library', 'mcp_server']);
const COMPONENT_TYPES = NULL_EXECUTOR_OK;
/**
 * Types that run code themselves: for these a null executor is a mistake. Rye's own tool
 * extractor declares executor_id `nullable` for every type and its executor stops the
 * chain at a null one, so any other type with a null executor (extractor, parser, sink...
 * Rye's data components) is a component, not a tool.
 */
const RUNNABLE_TYPES = new Set(['python', 'script', 'mcp', 'yaml', 'http', 'javascript', 'typescript', 'node', 'bash', 'shell']);
const REQUIRES = /^[a-z0-9_-]+(\.[a-z0-9_*-]+)+$/;
/** Runtimes that import the file and call execute() (seed: python/function; Rye OS: python_function_runtime). */
const FUNCTION_RUNTIME = /python[/_]function/;
/** Current-dialect fields read into the tool itself; every other field is kept verbatim in `fields`. */
const RYEOS_READ = new Set(['name', 'tool_id', 'tool_type', 'version', 'description', 'category', 'executor_id', 'execution_protocol', 'required_caps', 'requires', 'config', 'config_schema', 'input_schema', 'parameters', 'output_schema', 'outputs', 'config_resolve', 'tags', 'timeout']);

export type ToolOut = { component: boolean; id: string; category: string; info: Record<string, unknown>; tool?: ToolManifest; version: string | null; data?: boolean };

export function toTool(pkg: Pkg, rec: RyeRecord): ToolOut | null {
  const { scope, rel } = rec;
  const inTools = rel.slice(RYE_TOOLS_DIR.length);
  const expectedCategory = inTools.includes('/') ? inTools.slice(0, inTools.lastIndexOf('/')) : '';
  const base = inTools.split('/').pop()!;
  const stem = base.replace(TOOL_FILE, '');
  const get = rec.get;

  const ryeos = rec.dialect === 'ryeos';
  // A YAML file that says nothing a tool says (no tool_type, tool_id or executor_id) is
  // configuration a runner reads (Rye's tool extractor requires tool_type and executor_id
  // of a tool): data, not a tool.
  if (rec.kind === 'yaml' && !ryeos && !['tool_type', 'tool_id', 'executor_id'].some((f) => get(f).present)) {
    const id = expectedCategory ? `${expectedCategory}/${stem}` : stem;
    scope.note('rye/data-file', 'read as data (runner configuration), not a tool: it has no tool_type, tool_id or executor_id', undefined, 1);
    return { component: true, data: true, id, category: expectedCategory, info: { file: rel }, version: null };
  }
  if (ryeos) {
    // The current dialect has no tool_type and no required version: its tools name
    // themselves (`name`), say where they run (`executor_id`) and what they do.
    const missing = ['description', 'category', 'executor_id'].filter((f) => get(f).value === undefined);
    if (missing.length) scope.warn('rye/current-field-missing', `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing; the current Rye OS dialect tools declare ${missing.length > 1 ? 'them' : 'it'}`, undefined, 1);
    for (const f of ['tool_type', 'version', 'description', 'category', 'name']) {
      const v = get(f);
      if (v.present && v.value !== undefined && v.value !== null && typeof v.value !== 'string' && !(f === 'version' && typeof v.value === 'number')) scope.error('rye/field-invalid', `${v.path.slice(1)} must be a string`, v.path);
    }
  } else {
    const required = rec.kind === 'yaml' ? ['tool_type', 'version', 'description', 'category'] : ['version', 'tool_type', 'category', 'description'];
    for (const f of required) {
      const v = get(f);
      if (!v.present) {
        const label = rec.kind === 'yaml' ? f : f === 'description' ? '__tool_description__' : `__${f}__`;
        scope.error('rye/field-missing', `${label} is required`, undefined, 1);
      } else if (v.value !== undefined && typeof v.value !== 'string' && !(f === 'version' && typeof v.value === 'number')) {
        scope.error('rye/field-invalid', `${v.path.slice(1)} must be a string`, v.path);
      }
    }
  }
  const toolType = typeof get('tool_type').value === 'string' ? (get('tool_type').value as string) : null;
  if (toolType && !KNOWN_TYPES.has(toolType)) scope.warn('rye/tool-type-unknown', `unknown tool type "${toolType}"`, get('tool_type').path);

  const ex = get('executor_id');
  let executor: string | null = null;
  // A Python module that declares itself python but has no executor and nothing to call
  // (no module-level execute(), no class with an execute method) is a library module
  // that tools import (rye/agent/threads/persistence/budgets.py): a component.
  if (rec.kind === 'python' && toolType === 'python' && !ex.present && !rec.hasEntry) {
    scope.warn('rye/library-module', `read as a library module, not a tool: it declares __tool_type__ = "python" but has no executor and no execute(); say __tool_type__ = "library" and __executor_id__ = None, or move it into a lib/ folder`, get('tool_type').path);
    const cat0 = get('category').value;
    const id0 = expectedCategory ? `${expectedCategory}/${stem}` : stem;
    return { component: true, id: id0, category: expectedCategory, info: { file: rel, toolId: id0, toolType: 'library', declaredToolType: toolType, category: typeof cat0 === 'string' ? cat0 : null }, version: versionOf(get('version').value) };
  }
  if (!ex.present) {
    if (!ryeos) scope.error('rye/executor-missing', `${rec.kind === 'yaml' ? 'executor_id' : '__executor_id__'} is required (the runtime that runs this tool; null only for primitive, runtime, library and mcp_server)`, undefined, 1);
  } else if (ex.value === null || ex.value === undefined) {
    if (ex.value === null && toolType && RUNNABLE_TYPES.has(toolType)) scope.error('rye/executor-null', `executor_id may be null only for components (primitive, runtime, library, mcp_server, extractor, parser...), not a "${toolType}" tool`, ex.path);
    else if (ex.value === null && toolType && !NULL_EXECUTOR_OK.has(toolType)) {
      // extractors, parsers and the like: Rye loads them as data for its own machinery
      const cat0 = get('category').value;
      return { component: true, id: expectedCategory ? `${expectedCategory}/${stem}` : stem, category: expectedCategory, info: { file: rel, toolType, category: typeof cat0 === 'string' ? cat0 : null }, version: versionOf(get('version').value) };
    }
  } else if (typeof ex.value === 'string') executor = ex.value;
  else scope.error('rye/field-invalid', 'executor_id must be a string or null', ex.path);

  const version = versionOf(get('version').value);
  if (version !== null && !isSemver(version)) scope.error('version/not-semver', `version "${version}" must be semantic versioning (X.Y.Z)`, get('version').path);

  const cat = get('category').value;
  if (typeof cat === 'string' && cat.replace(/^\/+|\/+$/g, '') !== expectedCategory) {
    scope.error('rye/category-mismatch', `category "${cat}" must match the file's folder under .ai/tools ("${expectedCategory}")`, get('category').path);
  }

  // Name: YAML by tool_id, Python/JS/TS by file stem (SPEC 7).
  let sourceName = stem;
  const nm = get('name');
  if (ryeos && nm.present && typeof nm.value === 'string' && nm.value) sourceName = nm.value;
  else if (ryeos && rec.kind === 'yaml' && typeof get('tool_id').value === 'string' && get('tool_id').value) sourceName = get('tool_id').value as string;
  else if (rec.kind === 'yaml' && !ryeos) {
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
  if (ryeos) {
    info.dialect = 'ryeos';
    const ep = get('execution_protocol');
    if (ep.present) info.executionProtocol = ep.value;
    const rest = Object.entries(rec.fields ?? {}).filter(([k]) => !RYEOS_READ.has(k));
    if (rest.length) info.fields = Object.fromEntries(rest);
  }

  const yamlDoc = rec.kind === 'yaml' || (ryeos && rec.fields) ? (k: string) => get(k).value : () => undefined;
  const config = yamlDoc('config');
  if (config !== undefined) info.config = config;
  if (toolType && COMPONENT_TYPES.has(toolType)) {
    if (toolType === 'mcp_server') {
      if (!isPlainObject(config) || (typeof config.url !== 'string' && typeof config.command !== 'string')) scope.error('rye/mcp-config-missing', 'an MCP server needs config.url (http) or config.command (stdio)', '/config');
    }
    return { component: true, id, category: expectedCategory, info, version };
  }

  if (!isValidToolName(name)) {
    scope.error('tool/name-invalid', `tool name "${last}" cannot become a tool ref (a-z, 0-9, '-')`, undefined, 1);
    return null;
  }
  const tool = newTool(name, sourceName);
  tool.description = description;
  tool.params = rec.params;
  tool.executor = executor;

  // requires -> capabilities; the current dialect also says required_caps, and its
  // `requires` may be a mapping (requires: {capabilities: {manifest: ...}}): kept verbatim.
  const reqs = rec.kind === 'yaml' ? yamlDoc('requires') : get('requires').value;
  const caps: string[] = [];
  if (reqs !== undefined) {
    if (Array.isArray(reqs) && reqs.every((r) => typeof r === 'string')) caps.push(...(reqs as string[]));
    else if (ryeos) info.requires = reqs;
    else scope.error('rye/field-invalid', 'requires must be a list of capability strings', get('requires').path);
  }
  const rc = get('required_caps');
  if (ryeos && rc.present) {
    if (!Array.isArray(rc.value) || rc.value.some((r) => typeof r !== 'string')) scope.error('rye/field-invalid', 'required_caps must be a list of capability strings', rc.path);
    else caps.push(...(rc.value as string[]));
  }
  if (reqs !== undefined || (ryeos && rc.present)) {
    for (const r of caps) if (!REQUIRES.test(r)) scope.warn('rye/requires-invalid', `requires entry "${r}" should use dotted notation (fs.write, net.http)`, Array.isArray(reqs) && reqs.includes(r) ? get('requires').path : rc.path);
    if (caps.length || Array.isArray(reqs) || Array.isArray(rc.value)) tool.capabilities = [...new Set(caps)];
  }
  const tags = get('tags').value;
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) tool.tags = normalizeTags(tags);
  else if (tags !== undefined) scope.error('metadata/tags-invalid', 'tags must be a list of strings', get('tags').path);
  const timeout = get('timeout').value;
  if (typeof timeout === 'number' && timeout > 0) tool.timeoutMs = Math.round(timeout * 1000);
  else if (timeout !== undefined) scope.error('tool/timeout-invalid', 'timeout must be a positive number of seconds', get('timeout').path);
  else if (ryeos && isPlainObject(config) && typeof config.timeout_secs === 'number' && config.timeout_secs > 0) tool.timeoutMs = Math.round(config.timeout_secs * 1000);

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
    // The current dialect's script runtimes run the file (`if __name__ == "__main__"`);
    // only a function runtime needs execute().
    if (!rec.hasEntry && (!ryeos || (rec.kind === 'python' && executor !== null && FUNCTION_RUNTIME.test(executor)))) scope.error('rye/execute-missing', rec.kind === 'python' ? 'a Python tool must define execute(params, project_path)' : 'a JS/TS tool must export a default function (or main/execute)', undefined, 1);
  }
  if (rec.kind !== 'yaml' || ryeos) {
    const cr = get('config_resolve');
    if (cr.present) info.configResolve = cr.value;
  }
  if (tool.capabilities.some((c) => c.startsWith('net.') || c === 'net') && !tool.capabilities.includes('net')) tool.capabilities.push('net');
  return { component: false, id, category: expectedCategory, info, tool, version };
}

function versionOf(v: unknown): string | null {
  return typeof v === 'number' ? String(v) : typeof v === 'string' ? v : null;
}
