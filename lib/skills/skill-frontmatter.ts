// The frontmatter rules of the agent-apps / Agent Skills formats (shared by SKILL.md,
// *.skill.md, inline://markdown delegates and the exported `frontmatter` of code
// skills): only name, description, allowed-tools and metadata are top-level; every
// other field is moved into metadata; `$` cascade annotations are kept verbatim.
// The agent-apps rules (fields that belong in metadata, `role`, tags as strings) apply
// to agent-apps skills only: a plain SKILL.md is read the way Claude Code reads it.

import type { FileScope, LineMap } from './diagnostic-sink';
import { ptr } from './diagnostic-sink';
import { parseYamlLocated, YamlParseError } from './located-yaml';
import { isSemver, isValidSkillName, normalizeTags } from './names';
import { isPlainObject, type Pkg } from './package';
import { checkToolSchema } from './schema';
import { splitFrontmatter } from './frontmatter';
import { readToolExamples } from './tool-examples';
import { utf8Length } from './text';
import type { SkillManifest, ToolManifest } from './types';

export const CASCADE_ANNOTATIONS = new Set(['$inherit', '$private', '$public', '$local', '$global', '$dynamic', '$static', '$merge', '$order', '$remove', '$self', '$hook']);

/**
 * Top-level fields that are fine where they are (moved into metadata silently): the
 * Agent Skills spec's, the ones Claude Code documents for SKILL.md, and common
 * registry fields.
 */
export const KNOWN_TOP_LEVEL_FIELDS = new Set([
  'license',
  'compatibility',
  'user-invocable',
  'argument-hint',
  'disable-model-invocation',
  'context',
  'agent',
  'model',
  'when_to_use',
  'hooks',
  'effort',
  'shell',
  'disallowed-tools',
  'paths',
  'arguments',
  'homepage',
  'repository',
  'author',
  'keywords',
  'version',
  'tags',
]);
/** Fields the agent-apps spec says live inside metadata. */
const METADATA_FIELDS = new Set(['role', 'params', 'returns', 'visibility', 'tags', 'delegate', 'version', 'examples']);
/** Fields whose presence makes a SKILL.md an agent-apps skill (a tool with a handler). */
const AGENT_APPS_MARKERS = ['delegate', 'params', 'returns'];

export type FrontmatterContext = {
  /** the name used when the frontmatter has none, and where it comes from */
  fallbackName: string;
  fallbackFrom: 'folder' | 'file';
  /** the folder or file name as written, when the fallback name is it normalised (`Foo` -> `foo`) */
  fallbackSource?: string;
  /** single-file skills are agent-apps skills; a SKILL.md is one when it uses their fields */
  agentApps: boolean | 'detect';
};
/** Keys inside metadata whose values are JSON Schema (where `$ref`, `$defs`... are normal). */
const SCHEMA_KEYS = new Set(['params', 'returns']);

export type SkillFrontmatter = {
  name: string | null;
  description: string;
  allowedTools: string | null;
  metadata: Record<string, unknown>;
  version: string | null;
  /** tool-level fields read from metadata */
  role: ToolManifest['role'];
  visibility: ToolManifest['visibility'];
  tags: string[];
  params: Record<string, unknown> | null;
  returns: Record<string, unknown> | null;
  delegate: string | null;
};

export type MarkdownSkill = {
  fm: SkillFrontmatter | null;
  body: string;
  bodyLine: number;
  /** scope with the frontmatter's line map */
  fmScope: FileScope;
  /** a valid name read from a frontmatter that has a YAML error elsewhere */
  partialName?: string | null;
  /** the frontmatter as parsed, before any rule (what agents' loaders see) */
  raw?: unknown;
};

/** Parse a markdown skill file's frontmatter and body. `fm` is null when unusable. */
export function readMarkdownSkill(text: string, pkg: Pkg, scope: FileScope, ctx: FrontmatterContext): MarkdownSkill {
  const split = splitFrontmatter(text);
  const bodyLine = split.yaml === null ? 1 : split.yamlLine + split.yaml.split('\n').length;
  if (split.yaml === null) {
    scope.error('frontmatter/missing', 'the file must start with YAML frontmatter between --- lines (name, description)', undefined, 1);
    return { fm: null, body: split.body, bodyLine, fmScope: scope };
  }
  if (split.unterminated) {
    scope.error('frontmatter/unterminated', 'the frontmatter has no closing --- line', undefined, split.yamlLine - 1);
    return { fm: null, body: '', bodyLine, fmScope: scope };
  }
  if (split.indentedClose) scope.warn('frontmatter/fence-indented', 'the closing --- is indented: read (Codex trims lines), but agents that match the fence at the start of a line see no end of the frontmatter', undefined, split.indentedClose);
  let parsed;
  try {
    parsed = parseYamlLocated(split.yaml, { maxAliasCount: pkg.opts.limits.maxYamlAliasCount, maxDepth: pkg.opts.limits.maxDepth });
  } catch (e) {
    const err = e as YamlParseError;
    const code = err.code === 'depth' ? 'yaml/limit-exceeded' : 'yaml/invalid';
    scope.error(code, `frontmatter: ${err.message}`, undefined, (err.line ?? 1) + split.yamlLine - 1);
    // Checks that do not depend on the broken part still run on what could be read.
    const partialName = err.partial ? checkNameAndDescription(err.partial, pkg, scope, ctx, true).name : null;
    return { fm: null, body: split.body, bodyLine, fmScope: scope, partialName };
  }
  const fmScope = scope.with(parsed.lines, split.yamlLine - 1);
  for (const w of parsed.warnings) fmScope.warn(w.code ?? 'yaml/warning', w.message, undefined, w.line + split.yamlLine - 1);
  const fm = readFrontmatterObject(parsed.value, pkg, fmScope, ctx);
  return { fm, body: split.body, bodyLine, fmScope, raw: parsed.value };
}

/** `the folder name "Foo", normalised to "foo"`, or `the folder name "foo"` when it needed nothing. */
function fallbackNameWords(ctx: FrontmatterContext): string {
  const { fallbackFrom: from, fallbackName: name, fallbackSource: source } = ctx;
  return source !== undefined && source !== name ? `the ${from} name "${source}", normalised to "${name}",` : `the ${from} name "${name}"`;
}

/** name and description: the checks every frontmatter gets, even a partly broken one. */
function checkNameAndDescription(raw: Record<string, unknown>, pkg: Pkg, scope: FileScope, ctx: FrontmatterContext, partial = false): { name: string | null; description: string } {
  const limits = pkg.opts.limits;
  let name: string | null = null;
  let description = '';
  if (raw.name === undefined || raw.name === null || raw.name === '') {
    if (!partial) scope.warn('skill/name-missing', `frontmatter has no name; ${fallbackNameWords(ctx)} is used (as Claude Code does)`, '');
  } else if (typeof raw.name !== 'string') scope.error('skill/name-invalid', `name must be a string, got ${typeof raw.name}`, '/name');
  else {
    name = raw.name;
    if (!isValidSkillName(raw.name)) {
      scope.error('skill/name-invalid', `name "${raw.name}" must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen`, '/name');
      if (partial) name = null;
    }
  }
  if (raw.description === undefined || raw.description === null || (typeof raw.description === 'string' && raw.description.trim() === '')) {
    if (!partial || !Object.prototype.hasOwnProperty.call(raw, 'description')) scope.error('skill/description-missing', 'frontmatter has no description (agents choose skills by it)', '');
  } else if (typeof raw.description !== 'string') {
    // in a frontmatter the YAML parser gave up on, a non-string is that same fault, already reported at its line
    if (!partial) scope.error('skill/description-invalid', 'description must be a string', '/description');
  }
  else {
    description = raw.description.trim();
    const chars = codePoints(description);
    if (chars > limits.maxDescriptionChars) {
      scope.warn('skill/description-too-long', `description is ${chars} characters; listings truncate it at ${limits.maxDescriptionChars}`, '/description');
    }
  }
  return { name, description };
}

/** Length in Unicode code points (what people call characters), not UTF-16 units. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function usesAgentApps(raw: Record<string, unknown>): boolean {
  const md = isPlainObject(raw.metadata) ? raw.metadata : {};
  return AGENT_APPS_MARKERS.some((k) => raw[k] !== undefined || md[k] !== undefined) || Object.keys(md).some((k) => k.startsWith('$'));
}

/** Apply the frontmatter rules to a parsed object (YAML or a code skill's literal). */
export function readFrontmatterObject(raw: unknown, pkg: Pkg, scope: FileScope, ctx: FrontmatterContext): SkillFrontmatter | null {
  if (!isPlainObject(raw)) {
    scope.error('frontmatter/not-mapping', 'frontmatter must be a mapping of fields (name, description, ...)', '');
    return null;
  }
  const limits = pkg.opts.limits;
  const agentApps = ctx.agentApps === 'detect' ? usesAgentApps(raw) : ctx.agentApps;
  const fm: SkillFrontmatter = { name: null, description: '', allowedTools: null, metadata: {}, version: null, role: null, visibility: null, tags: [], params: null, returns: null, delegate: null };
  const nd = checkNameAndDescription(raw, pkg, scope, ctx);
  fm.name = nd.name;
  fm.description = nd.description;

  const at = raw['allowed-tools'];
  if (at !== undefined && at !== null) {
    if (typeof at === 'string') fm.allowedTools = at.trim();
    else if (Array.isArray(at) && at.every((x) => typeof x === 'string')) fm.allowedTools = at.map((x) => x.trim()).join(' ');
    else scope.error('skill/allowed-tools-invalid', 'allowed-tools must be a space-delimited string or a list of strings', '/allowed-tools');
    if (fm.allowedTools !== null && !balancedParens(fm.allowedTools)) {
      scope.error('skill/allowed-tools-invalid', 'allowed-tools has unbalanced parentheses in a tool(key=value) specifier', '/allowed-tools');
    }
  }

  let metadata: Record<string, unknown> = {};
  if (raw.metadata !== undefined && raw.metadata !== null) {
    if (isPlainObject(raw.metadata)) metadata = { ...raw.metadata };
    else scope.error('skill/metadata-invalid', 'metadata must be a mapping', '/metadata');
  }
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'name' || k === 'description' || k === 'allowed-tools' || k === 'metadata') continue;
    if (Object.prototype.hasOwnProperty.call(metadata, k)) {
      scope.warn('frontmatter/field-shadowed', `top-level "${k}" is ignored because metadata.${k} is also set`, ptr('', k));
      continue;
    }
    if (agentApps && METADATA_FIELDS.has(k)) scope.warn('frontmatter/field-not-in-metadata', `"${k}" belongs inside metadata (only name, description, allowed-tools and metadata are top-level); read as metadata.${k}`, ptr('', k));
    else if (!KNOWN_TOP_LEVEL_FIELDS.has(k) && !METADATA_FIELDS.has(k) && !k.startsWith('$')) scope.warn('frontmatter/unknown-field', `"${k}" is not a SKILL.md field: it is kept in the manifest's metadata`, ptr('', k));
    metadata[k] = v;
  }
  // `$` annotations are only meaningful as direct children of metadata.
  const mbase = Object.prototype.hasOwnProperty.call(raw, 'metadata') ? '/metadata' : '';
  for (const [k, v] of Object.entries(metadata)) {
    const p = ptr(mbase, k);
    if (k.startsWith('$') && !CASCADE_ANNOTATIONS.has(k)) scope.warn('metadata/unknown-annotation', `unknown cascade annotation "${k}" (known: ${[...CASCADE_ANNOTATIONS].join(' ')})`, p);
    if (!SCHEMA_KEYS.has(k)) {
      const nested = findNestedDollarKey(v, p, 0);
      if (nested) scope.warn('metadata/nested-annotation', `"$"-keys are cascade annotations and belong directly under metadata; found one at ${nested}`, nested);
    }
  }
  fm.metadata = metadata;
  const mp = (k: string) => ptr(mbase, k);

  if (metadata.version !== undefined) {
    const v = typeof metadata.version === 'number' ? String(metadata.version) : metadata.version;
    // "4.0" and "2" (as written, in quotes) are common in real skills: read as 4.0.0 and
    // 2.0.0, with the warning. An unquoted one is a YAML number whose text is gone (1.10
    // arrives as 1.1, 0x10 as 16): it is not guessed at.
    const short = typeof metadata.version === 'string' ? /^v?(\d{1,9})(?:\.(\d{1,9}))?$/.exec(metadata.version.trim()) : null;
    if (isSemver(v)) fm.version = v;
    else if (short) {
      fm.version = `${Number(short[1])}.${Number(short[2] ?? 0)}.0`;
      scope.warn('version/not-semver', `version ${JSON.stringify(metadata.version)} is not semantic versioning (X.Y.Z); read as ${fm.version}`, mp('version'));
    } else if (typeof metadata.version === 'number') {
      scope.warn('version/not-semver', `version ${metadata.version} is a YAML number (an unquoted 1.10 is read as 1.1), not semantic versioning: write it in quotes as X.Y.Z, e.g. "1.0.0"`, mp('version'));
    } else scope.warn('version/not-semver', `version ${JSON.stringify(metadata.version)} is not semantic versioning (X.Y.Z)`, mp('version'));
  }
  if (metadata.role !== undefined) {
    if (metadata.role === 'main' || metadata.role === 'middleware' || metadata.role === 'context') fm.role = metadata.role;
    else if (agentApps) scope.error('metadata/role-invalid', `role must be main, middleware or context, got ${JSON.stringify(metadata.role)}`, mp('role'));
  }
  if (metadata.visibility !== undefined) {
    if (metadata.visibility === 'hidden') fm.visibility = 'hidden';
    // only agent-apps gives visibility a meaning; elsewhere ("public", "internal") it is metadata
    else if (agentApps) scope.error('metadata/visibility-invalid', `visibility can only be "hidden", got ${JSON.stringify(metadata.visibility)}`, mp('visibility'));
  }
  if (metadata.tags !== undefined) {
    const tags = typeof metadata.tags === 'string' ? metadata.tags.split(/[,\s]+/) : metadata.tags;
    const dropped = (t: string) => scope.warn('metadata/tag-dropped', `tag ${JSON.stringify(t)} has no letters or digits; it is left out`, mp('tags'));
    if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) {
      fm.tags = normalizeTags(tags, dropped);
      metadata.tags = fm.tags;
    } else if (agentApps) scope.error('metadata/tags-invalid', 'tags must be a list of strings', mp('tags'));
    else if (Array.isArray(tags) && tags.every((t) => typeof t === 'string' || typeof t === 'number')) {
      // YAML reads `tags: [2024, ai]` with a number; Claude Code does not care.
      fm.tags = normalizeTags(tags.map(String), dropped);
      metadata.tags = fm.tags;
    } else scope.warn('metadata/tags-ignored', 'tags should be a list of strings; they are kept in metadata but not used as tags', mp('tags'));
  }
  fm.params = checkToolSchema(metadata.params, scope, mp('params'), { role: 'params', maxDepth: limits.maxDepth });
  fm.returns = checkToolSchema(metadata.returns, scope, mp('returns'), { role: 'returns', maxDepth: limits.maxDepth });
  if (metadata.delegate !== undefined && metadata.delegate !== null) {
    if (typeof metadata.delegate === 'string' && metadata.delegate.trim()) fm.delegate = metadata.delegate.trim();
    else scope.error('delegate/invalid', 'metadata.delegate must be a path or an inline:// ref', mp('delegate'));
  }
  return fm;
}

function balancedParens(s: string): boolean {
  let d = 0;
  for (const c of s) {
    if (c === '(') d++;
    else if (c === ')' && --d < 0) return false;
  }
  return d === 0;
}

function findNestedDollarKey(v: unknown, at: string, depth: number): string | null {
  if (depth > 64 || v === null || typeof v !== 'object') return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = findNestedDollarKey(v[i], ptr(at, i), depth + 1);
      if (r) return r;
    }
    return null;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('$')) return ptr(at, k);
    const r = findNestedDollarKey(x, ptr(at, k), depth + 1);
    if (r) return r;
  }
  return null;
}

/** Instructions body checks shared by SKILL.md and .skill.md. */
export function checkInstructions(body: string, pkg: Pkg, scope: FileScope, line: number): string | null {
  // a file written with Windows line endings gives instructions with plain ones
  const trimmed = body.replace(/\r\n?/g, '\n').replace(/^\s*\n/, '');
  if (!trimmed.trim()) return null;
  const max = pkg.opts.limits.maxInstructionsBytes;
  if (utf8Length(trimmed) > max) {
    scope.error('skill/instructions-too-large', `instructions are ${utf8Length(trimmed)} bytes; the limit is ${max}`, undefined, line);
    return trimmed.slice(0, max);
  }
  return trimmed;
}

export type { LineMap };

/** The skill-level fields of a frontmatter, the same for every format that has one. */
export function applySkillFields(m: SkillManifest, fm: SkillFrontmatter): void {
  m.description = fm.description;
  m.allowedTools = fm.allowedTools;
  m.metadata = fm.metadata;
  m.version = fm.version;
}

/** A skill that is itself one tool: the tool-level fields its frontmatter declares. */
export function applyToolFields(t: ToolManifest, fm: SkillFrontmatter, description: string, scope: FileScope | null = null): void {
  t.description = description;
  t.role = fm.role;
  t.visibility = fm.visibility;
  t.tags = fm.tags;
  t.params = fm.params;
  t.returns = fm.returns;
  // `examples` is not a top-level field: it lives in metadata, like params
  const examples = readToolExamples(fm.metadata.examples, '/metadata/examples', scope, fm.params);
  if (examples) t.examples = examples;
}
