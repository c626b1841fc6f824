// One Rye record -> a tool (or a component: mcp_server, library, runtime, primitive).
// A Rye tool's identity is its category path plus its name (SPEC 7: YAML tools by
// tool_id, the others by file stem).

import { isPlainObject, newTool, type Pkg } from '../../package';
import { canonicalToolName, isSemver, isValidToolName, normalizeTags } from '../../names';
import { checkToolSchema } from '../../schema';
import type { ToolManifest } from '../../types';
import type { RyeRecord } from './record';

export const RYE_TOOLS_DIR = '.ai/tools/';
export const TOOL_FILE = /\.(py|ya?ml|m?js|cjs|ts|sh|bash)$/i;
const KNOWN_TYPES = new Set(['python', 'script', 'mcp', 'mcp_server', 'primitive', 'runtime', 'library', 'yaml', 'http', 'javascript', 'typescript', 'node', 'bash', 'shell']);
const NULL_EXECUTOR_OK = new Set(['primitive', 'runtime', 'library', 'mcp_server']);
const COMPONENT_TYPES = NULL_EXECUTOR_OK;
const REQUIRES = /^[a-z0-9_-]+(\.[a-z0-9_*-]+)+$/;

export type ToolOut = { component: boolean; id: string; category: string; info: Record<string, unknown>; tool?: ToolManifest; version: string | null };

export function toTool(pkg: Pkg, rec: RyeRecord): ToolOut | null {
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
      const label = rec.kind === 'yaml' ? f : f === 'description' ? '__tool_description__' : `__${f}__`;
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

  // requires -> capabilities
  const reqs = rec.kind === 'yaml' ? yamlDoc('requires') : get('requires').value;
  if (reqs !== undefined) {
    if (!Array.isArray(reqs) || reqs.some((r) => typeof r !== 'string')) scope.error('rye/field-invalid', 'requires must be a list of capability strings', get('requires').path);
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
  return { component: false, id, category: expectedCategory, info, tool, version };
}
