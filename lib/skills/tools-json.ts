// tools.json, in its dialects: Skill Tools (`parameters` map, `script`) inside an
// Agent Skills folder; malv (`input_schema`/`output_schema`, `capabilities`,
// `input_tokens`/`output_tokens`, `$defs`); and an MCP tool list (`inputSchema`,
// `outputSchema` in camelCase, as `tools/list` returns them, bare or as `{ tools }`).

import { ptr, type FileScope } from './diagnostic-sink';
import { LocatedParseError, parseJsonLocated } from './located-json';
import { canonicalToolName, isValidToolName, normalizeTags } from './names';
import { handlerKindFor, isPlainObject, newTool, type Pkg } from './package';
import { readToolExamples } from './tool-examples';
import { checkToolSchema } from './schema';
import { parseTsModule } from './ts-literal';
import { parsePythonModule } from './python-literal';
import type { ToolManifest } from './types';

export type ToolsDialect = 'skill-tools' | 'malv' | 'mcp';

export const KNOWN_CAPABILITIES = new Set(['storage', 'token', 'environment', 'event', 'tool', 'ai', 'object', 'net']);
const PARAM_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const ISSUER = /^@[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9._-]*$/;

/** Fields of the malv and Skill Tools dialects that an MCP `tools/list` entry never has. */
const NOT_MCP_FIELDS = ['input_schema', 'capabilities', 'input_tokens', 'output_tokens', 'script', 'parameters'];

/**
 * An MCP tool list: entries with camelCase `inputSchema` and none of the malv or Skill
 * Tools fields (a Skill Tools entry may spell its schema `inputSchema` beside a `script`).
 */
export function isMcpToolList(value: unknown): boolean {
  const list = isPlainObject(value) && Array.isArray(value.tools) ? value.tools : value;
  if (!Array.isArray(list) || list.length === 0) return false;
  const objs = list.filter(isPlainObject);
  return objs.some((e) => e.inputSchema !== undefined) && !objs.some((e) => NOT_MCP_FIELDS.some((f) => e[f] !== undefined));
}

/**
 * Read a tools.json. `dialect` is what the package format expects; a file that is an MCP
 * tool list (a malv app's, or one beside a SKILL.md) is read as one (`onDialect` is told).
 */
export function readToolsJson(pkg: Pkg, rel: string, dialect: ToolsDialect, onDialect?: (d: ToolsDialect) => void, server?: string): ToolManifest[] {
  const text = pkg.readText(rel);
  if (text === null) return [];
  const file = pkg.scope(rel);
  let parsed;
  try {
    parsed = parseJsonLocated(text, pkg.opts.limits.maxDepth);
  } catch (e) {
    const err = e as LocatedParseError;
    file.error(err.code === 'depth' ? 'json/limit-exceeded' : 'tools/invalid-json', `${rel} is not valid JSON: ${err.message}`, undefined, err.line);
    return [];
  }
  const scope = file.with(parsed.lines);
  for (const d of parsed.duplicateKeys) scope.warn('json/duplicate-key', `duplicate key ${d.path}; the last one wins`, d.path, d.line);
  if (dialect !== 'mcp' && isMcpToolList(parsed.value)) {
    dialect = 'mcp';
    onDialect?.('mcp');
  }
  let list = parsed.value;
  let base = '';
  if (dialect === 'mcp' && isPlainObject(list) && Array.isArray(list.tools)) {
    list = list.tools;
    base = '/tools';
  }
  if (dialect === 'skill-tools' && !isSkillToolsShape(list)) {
    // Beside a SKILL.md, a tools.json that is no Skill Tools list (an OpenAI
    // `{"tools": [{"type": "function", ...}]}` file, some tool's config) is not ours to judge.
    scope.note('tools/not-skill-tools', `${rel} is not a Skill Tools list (an array of tools with name and description${isOpenAiTools(list) ? '; this one is an OpenAI function list' : ''}): left alone, the skill has no tools from it`, '');
    return [];
  }
  if (!Array.isArray(list)) {
    scope.error('tools/not-array', `${rel} must be a JSON array of tools (even for one tool)`, '');
    return [];
  }
  const tools: ToolManifest[] = [];
  const seen = new Map<string, string>();
  list.forEach((entry, i) => {
    const tool = readToolEntry(entry, `${base}/${i}`, pkg, scope, dialect, server);
    if (!tool) return;
    const prev = seen.get(tool.name);
    if (prev !== undefined) {
      scope.error('tool/duplicate-name', prev === tool.sourceName ? `tool name "${tool.sourceName}" is declared twice` : `tools "${prev}" and "${tool.sourceName}" have the same canonical name "${tool.name}"`, `${base}/${i}/name`);
      return;
    }
    seen.set(tool.name, tool.sourceName);
    tools.push(tool);
  });
  return tools;
}

/** OpenAI function tools: `{"tools": [{"type": "function", "function": {...}}]}`, or the bare list. */
function isOpenAiTools(v: unknown): boolean {
  const list = isPlainObject(v) && Array.isArray(v.tools) ? v.tools : v;
  return Array.isArray(list) && list.length > 0 && list.every((e) => isPlainObject(e) && e.type === 'function' && (isPlainObject(e.function) || typeof e.name === 'string'));
}

/** A Skill Tools tools.json is an array whose entries are tools (objects, not OpenAI wrappers); an empty array is one too. */
function isSkillToolsShape(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  return !v.some((e) => isPlainObject(e) && e.name === undefined && isPlainObject(e.function));
}

/** fields people use for a tool's arguments that no tools.json format reads */
const IGNORED_ARGUMENT_FIELDS = ['arguments', 'args', 'params', 'inputs', 'input'] as const;

function readToolEntry(raw: unknown, at: string, pkg: Pkg, scope: FileScope, dialect: ToolsDialect, server?: string): ToolManifest | null {
  if (!isPlainObject(raw)) {
    scope.error('tool/not-object', 'each tool must be an object with name and description', at);
    return null;
  }
  let entry: Record<string, unknown> = raw;
  const maxDepth = pkg.opts.limits.maxDepth;
  if (typeof entry.name !== 'string' || entry.name === '') {
    scope.error('tool/name-missing', 'tool has no name; it is skipped', at);
    return null;
  }
  const source = entry.name;
  if (dialect === 'mcp' && entry.description === undefined && typeof entry.title === 'string') entry = { ...entry, description: entry.title };
  // MCP names allow letters, digits, '_', '-' and '.': their ref folds them into a-z 0-9 '-'.
  const name = dialect === 'mcp' ? canonicalToolName(source).replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') : canonicalToolName(source);
  if (!isValidToolName(name)) {
    scope.error('tool/name-invalid', `tool name "${source}" must be lowercase letters, digits and underscores (^[a-z][a-z0-9_]*$)`, `${at}/name`);
    return null;
  }
  if (dialect === 'skill-tools' && !/^[a-z][a-z0-9_]*$/.test(source)) scope.error('tool/name-not-skill-tools', `tool name "${source}" must match ^[a-z][a-z0-9_]*$ (the Skill Tools specification's MUST; ${/[A-Z]/.test(source) ? 'camelCase' : 'this name'} is not allowed)`, `${at}/name`);
  else if (dialect === 'malv' && !/^[a-z][a-z0-9_]*$/.test(source)) scope.warn('tool/name-not-snake-case', `tool name "${source}" should be snake_case (^[a-z][a-z0-9_]*$); its ref is "${name}"`, `${at}/name`);
  const tool = newTool(name, source);
  if (typeof entry.description !== 'string' || !entry.description.trim()) scope.error('tool/description-missing', `tool "${source}" has no description (the agent reads it to decide when to call the tool)`, at);
  else tool.description = entry.description.trim();

  // params (an MCP list spells them inputSchema/outputSchema)
  if (dialect === 'mcp') {
    tool.params = entry.inputSchema === undefined ? null : checkToolSchema(entry.inputSchema, scope, `${at}/inputSchema`, { role: 'params', maxDepth });
    tool.returns = entry.outputSchema === undefined ? null : checkToolSchema(entry.outputSchema, scope, `${at}/outputSchema`, { role: 'returns', maxDepth });
    tool.handler = { kind: 'mcp', ref: `${server ?? pkg.dirName ?? 'server'}#${source}` };
    tool.capabilities = ['net'];
    return tool;
  }
  let params: Record<string, unknown> | null = null;
  if (entry.input_schema === undefined && entry.inputSchema !== undefined) entry = { ...entry, input_schema: entry.inputSchema };
  if (entry.output_schema === undefined && entry.outputSchema !== undefined) entry = { ...entry, output_schema: entry.outputSchema };
  if (entry.input_schema !== undefined) {
    if (entry.parameters !== undefined) scope.warn('tool/params-conflict', `tool "${source}" has both parameters and input_schema; input_schema is used`, `${at}/parameters`);
    params = checkToolSchema(withDefs(entry.input_schema, entry.$defs), scope, `${at}/input_schema`, { role: 'params', maxDepth });
  } else if (entry.parameters !== undefined) {
    const converted = parametersToSchema(entry.parameters, `${at}/parameters`, scope);
    params = converted ? checkToolSchema(withDefs(converted, entry.$defs), scope, `${at}/parameters`, { role: 'params', maxDepth }) : null;
  } else {
    // a list of arguments under a name no format reads: say so, instead of only "takes no arguments"
    const ignored = IGNORED_ARGUMENT_FIELDS.find((k) => entry[k] !== undefined);
    if (ignored) scope.warn('tool/arguments-ignored', `tool "${source}" describes its arguments in "${ignored}", which tools.json does not read; use input_schema (a JSON Schema) or parameters, or the tool takes no arguments`, `${at}/${ignored}`);
    else if (dialect === 'malv') scope.warn('malv/input-schema-missing', `tool "${source}" has no input_schema; it takes no arguments`, at);
  }
  tool.params = params;

  if (entry.output_schema !== undefined) tool.returns = checkToolSchema(withDefs(entry.output_schema, entry.$defs), scope, `${at}/output_schema`, { role: 'returns', maxDepth });
  else if (entry.returns !== undefined) tool.returns = checkToolSchema(withDefs(entry.returns, entry.$defs), scope, `${at}/returns`, { role: 'returns', maxDepth });
  else if (dialect === 'malv') scope.warn('malv/output-schema-missing', `tool "${source}" has no output_schema`, at);
  if (entry.$defs !== undefined && !isPlainObject(entry.$defs)) scope.error('schema/defs-invalid', '$defs must be an object of named schemas', `${at}/$defs`);

  // capabilities
  if (entry.capabilities === undefined) {
    if (dialect === 'malv') scope.warn('malv/capabilities-missing', `tool "${source}" does not declare capabilities; [] is assumed`, at);
  } else if (!Array.isArray(entry.capabilities) || entry.capabilities.some((c) => typeof c !== 'string')) {
    scope.error('tool/capabilities-invalid', 'capabilities must be a list of strings', `${at}/capabilities`);
  } else {
    entry.capabilities.forEach((c: string, i: number) => {
      if (!KNOWN_CAPABILITIES.has(c)) scope.warn('tool/capability-unknown', `unknown capability "${c}" (known: ${[...KNOWN_CAPABILITIES].join(', ')})`, `${at}/capabilities/${i}`);
    });
    tool.capabilities = [...new Set(entry.capabilities as string[])];
  }

  tool.inputTokens = readTokens(entry.input_tokens, `${at}/input_tokens`, scope, 'input') as ToolManifest['inputTokens'];
  tool.outputTokens = readTokens(entry.output_tokens, `${at}/output_tokens`, scope, 'output') as ToolManifest['outputTokens'];

  if (entry.tags !== undefined) {
    if (Array.isArray(entry.tags) && entry.tags.every((t) => typeof t === 'string')) tool.tags = normalizeTags(entry.tags);
    else scope.error('metadata/tags-invalid', 'tags must be a list of strings', `${at}/tags`);
  }
  if (entry.visibility !== undefined) {
    if (entry.visibility === 'hidden') tool.visibility = 'hidden';
    else scope.error('metadata/visibility-invalid', 'visibility can only be "hidden"', `${at}/visibility`);
  }
  const examples = readToolExamples(entry.examples, `${at}/examples`, scope, tool.params);
  if (examples) tool.examples = examples;
  if (entry.timeout !== undefined) {
    if (typeof entry.timeout === 'number' && entry.timeout > 0) tool.timeoutMs = Math.round(entry.timeout * 1000);
    else scope.error('tool/timeout-invalid', 'timeout must be a positive number of seconds', `${at}/timeout`);
  }

  // handler
  if (entry.script !== undefined) {
    if (typeof entry.script !== 'string' || !entry.script) scope.error('tool/script-invalid', 'script must be a relative path', `${at}/script`);
    else {
      const rel = pkg.resolveRef('', entry.script, scope, `${at}/script`);
      if (rel !== null) attachHandler(tool, rel, pkg, scope, `${at}/script`, dialect);
    }
  } else if (dialect === 'malv') {
    const rel = findMalvHandler(pkg, source);
    if (rel) attachHandler(tool, rel, pkg, scope, at, dialect);
    else scope.warn('malv/handler-missing', `no handler found for "${source}" (looked for src/tools/${source}.ts and similar)`, at);
  }
  return tool;
}

/** Tool-level `$defs` (malv) are merged into the schema so `#/$defs/x` resolves. */
function withDefs(schema: unknown, defs: unknown): unknown {
  if (!isPlainObject(schema) || !isPlainObject(defs)) return schema;
  const own = isPlainObject(schema.$defs) ? schema.$defs : {};
  return { ...schema, $defs: { ...defs, ...own } };
}

function findMalvHandler(pkg: Pkg, source: string): string | null {
  const names = [...new Set([source, source.replace(/_/g, '-')])];
  for (const dir of ['src/tools/', 'tools/', 'handlers/', 'src/', '']) {
    for (const n of names) for (const ext of ['.ts', '.js', '.mjs']) if (pkg.has(dir + n + ext)) return dir + n + ext;
  }
  return null;
}

function attachHandler(tool: ToolManifest, rel: string, pkg: Pkg, scope: FileScope, at: string, dialect: ToolsDialect): void {
  if (!pkg.has(rel)) {
    scope.error('tool/script-missing', `handler script ${rel} does not exist in the package`, at);
    return;
  }
  const kind = handlerKindFor(rel);
  if (!kind || kind === 'markdown') {
    scope.warn('tool/script-type-unknown', `no runtime runs ${rel} (expected .js, .ts, .py or .sh)`, at);
    return;
  }
  tool.handler = { kind, ref: rel };
  const text = kind === 'bash' ? null : pkg.readText(rel);
  if (text === null) return;
  const hs = pkg.scope(rel);
  if (kind === 'js' || kind === 'ts') {
    const mod = parseTsModule(text, rel, { maxDepth: pkg.opts.limits.maxDepth });
    for (const e of mod.syntaxErrors.slice(0, 3)) hs.error('code/syntax-error', e.message, undefined, e.line);
    if (!mod.syntaxErrors.length && !mod.hasDefaultExport) {
      hs.error('tool/handler-no-default-export', `${rel} must export a default ${dialect === 'malv' ? 'async function (input, capabilities)' : 'async function (args)'}`, undefined, 1);
    }
  } else if (kind === 'python') {
    const mod = parsePythonModule(text, { maxDepth: pkg.opts.limits.maxDepth });
    if (mod.syntaxError) hs.error('python/syntax-error', mod.syntaxError.message, undefined, mod.syntaxError.line);
    else if (!mod.functions.has('handler')) hs.warn('tool/handler-missing-function', `${rel} should define handler(args)`, undefined, 1);
  }
}

/** Skill Tools `parameters` map -> JSON Schema object (required unless optional: true). */
export function parametersToSchema(parameters: unknown, at: string, scope: FileScope): Record<string, unknown> | null {
  if (!isPlainObject(parameters)) {
    scope.error('tool/parameters-invalid', 'parameters must be an object mapping parameter names to definitions', at);
    return null;
  }
  if (parameters.type === 'object' && isPlainObject(parameters.properties)) {
    scope.warn('tool/parameters-json-schema', 'parameters is a full JSON Schema; Skill Tools expects a map of name -> definition (used as a schema)', at);
    return parameters;
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, def] of Object.entries(parameters)) {
    const p = ptr(at, name);
    if (!isPlainObject(def)) {
      scope.error('param/invalid', `parameter "${name}" must be an object with type and description`, p);
      continue;
    }
    if (def.type === undefined) scope.error('param/type-missing', `parameter "${name}" has no type`, p);
    else if (typeof def.type !== 'string' || !PARAM_TYPES.has(def.type)) scope.error('param/type-invalid', `parameter "${name}" has type ${JSON.stringify(def.type)}; use string, number, integer, boolean, object or array`, ptr(p, 'type'));
    if (typeof def.description !== 'string' || !def.description.trim()) scope.warn('param/description-missing', `parameter "${name}" has no description`, p);
    if (def.optional !== undefined && typeof def.optional !== 'boolean') scope.error('param/optional-invalid', `optional must be true or false`, ptr(p, 'optional'));
    const { optional, ...rest } = def;
    properties[name] = rest;
    if (optional !== true) required.push(name);
  }
  const schema: Record<string, unknown> = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}

/** malv input_tokens / output_tokens: issuer -> { required, allow_expired } */
function readTokens(raw: unknown, at: string, scope: FileScope, kind: 'input' | 'output'): Record<string, { required: string[]; allowExpired?: string[] }> {
  const out: Record<string, { required: string[]; allowExpired?: string[] }> = {};
  if (raw === undefined) return out;
  if (!isPlainObject(raw)) {
    scope.error('tokens/invalid', `${kind}_tokens must map issuers (like "@oauth/github") to { "required": [claims] }`, at);
    return out;
  }
  for (const [issuer, spec] of Object.entries(raw)) {
    const p = ptr(at, issuer);
    if (!ISSUER.test(issuer)) scope.warn('tokens/issuer-invalid', `token issuer "${issuer}" should look like @scope/name`, p);
    if (kind === 'output' && issuer.startsWith('@oauth/')) {
      scope.error('tokens/oauth-reserved', `"${issuer}" tokens are minted only by the platform's OAuth login; a tool cannot declare them in output_tokens`, p);
      continue;
    }
    if (!isPlainObject(spec)) {
      scope.error('tokens/invalid', `tokens for ${issuer} must be an object with "required"`, p);
      continue;
    }
    const req = spec.required;
    if (!Array.isArray(req) || req.length === 0 || req.some((c) => typeof c !== 'string' || !c)) {
      scope.error('tokens/required-missing', `tokens for ${issuer} need "required": a non-empty list of claim names`, ptr(p, 'required'));
      continue;
    }
    const entry: { required: string[]; allowExpired?: string[] } = { required: [...new Set(req as string[])] };
    if (kind === 'input') {
      entry.allowExpired = [];
      const ae = spec.allow_expired ?? spec.allowExpired;
      if (ae !== undefined) {
        if (!Array.isArray(ae) || ae.some((c) => typeof c !== 'string')) scope.error('tokens/allow-expired-invalid', 'allow_expired must be a list of claim names', ptr(p, 'allow_expired'));
        else {
          for (const c of ae as string[]) {
            if (!entry.required.includes(c)) scope.warn('tokens/allow-expired-unknown', `allow_expired claim "${c}" is not in required`, ptr(p, 'allow_expired'));
          }
          entry.allowExpired = (ae as string[]).filter((c) => entry.required.includes(c));
        }
      }
    } else if (spec.allow_expired !== undefined) scope.warn('tokens/allow-expired-output', 'allow_expired has no meaning in output_tokens', ptr(p, 'allow_expired'));
    out[issuer] = entry;
  }
  return out;
}
