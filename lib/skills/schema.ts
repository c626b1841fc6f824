// JSON Schema for tool params/returns: Ajv (draft 2020-12, 2019-09 and draft-07 picked
// by `$schema`), the registered `$resolve` keyword, authoring checks, and the runtime's
// `resolveJsonSchema` + `compileToolSchema`.

import type { ValidateFunction } from 'ajv';
import { ajvFor, compileErrorOf, compileWith, SchemaCompileError, type SchemaDraft } from './ajv';
import type { FileScope } from './diagnostic-sink';
import { ptr } from './diagnostic-sink';
import { exceedsDepth } from './depth';
import { compileLinear, PatternError } from './linear-regexp';

export { SchemaCompileError, type SchemaDraft };

const DRAFTS: Record<string, SchemaDraft | 'unsupported'> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-06/schema': 'unsupported',
  'http://json-schema.org/draft-04/schema': 'unsupported',
};

/** Which Ajv dialect a schema asks for; no `$schema` means 2020-12. */
export function schemaDraft(schema: unknown): SchemaDraft | 'unsupported' | 'unknown' {
  const s = (schema as { $schema?: unknown } | null)?.$schema;
  if (s === undefined) return '2020-12';
  if (typeof s !== 'string') return 'unknown';
  const key = s.replace(/#$/, '').replace(/^https?:\/\/json-schema\.org\/draft-0/, 'http://json-schema.org/draft-0');
  return DRAFTS[key] ?? 'unknown';
}

/** Cascade/runtime annotations that may sit in a tool schema; Ajv must not reject them. */
export const SCHEMA_ANNOTATION_KEYWORDS = ['$resolve'] as const;

/** The reader's Ajv instance for a draft (the one setup is in ajv.ts). */
export function getAjv(draft: SchemaDraft = '2020-12'): import('ajv').default {
  return ajvFor(draft, false);
}

/**
 * Compile a tool's params/returns schema once and reuse the validator (draft picked by
 * `$schema`). With `useDefaults` (the runtime's params) validation fills in declared
 * defaults. Throws SchemaCompileError when the schema does not compile (the reader
 * reports that as a diagnostic first, so a published manifest's schemas compile).
 */
export function compileToolSchema(schema: object, opts: { useDefaults?: boolean } = {}): ValidateFunction {
  const draft = schemaDraft(schema);
  if (draft === 'unsupported') throw new SchemaCompileError(`unsupported $schema ${(schema as { $schema?: unknown }).$schema}`);
  return compileWith(schema, draft === 'unknown' ? '2020-12' : draft, opts.useDefaults ?? false);
}

/**
 * Would this schema compile in Ajv? Compiling costs ~1 ms per schema (code generation),
 * which dominates reading 10,000 skills, so the reader proves it more cheaply when it
 * can: Ajv's meta-schema validation (the same check compile starts with) plus
 * resolving every local `$ref` JSON pointer. Regex patterns are checked by walkSchema.
 * Schemas that use `$id`, anchors, dynamic/recursive or non-local refs get a real
 * compile. property.test.ts checks that both paths agree.
 */
export function schemaCompileError(schema: object, draft: SchemaDraft): string | null {
  const ajv = getAjv(draft);
  let valid: boolean;
  try {
    valid = ajv.validateSchema(schema) as boolean;
  } catch (e) {
    return (e as Error).message;
  }
  if (!valid) return `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
  // Markers of features this shortcut does not model: compile for real.
  let needsCompile = false;
  const scan = (v: unknown, depth: number) => {
    if (needsCompile || v === null || typeof v !== 'object' || depth > 200) return;
    if (Array.isArray(v)) return v.forEach((x) => scan(x, depth + 1));
    const o = v as Record<string, unknown>;
    if (o.$id !== undefined || o.$anchor !== undefined || o.$dynamicRef !== undefined || o.$dynamicAnchor !== undefined || o.$recursiveRef !== undefined || o.$recursiveAnchor !== undefined || typeof o.id === 'string') needsCompile = true;
    if (typeof o.$ref === 'string' && o.$ref !== '#' && !o.$ref.startsWith('#/')) needsCompile = true;
    for (const x of Object.values(o)) scan(x, depth + 1);
  };
  scan(schema, 0);
  if (needsCompile) return fullCompileError(schema, draft);
  // Follow what Ajv compiles: applicator keywords from the root and the targets of
  // $ref (unused $defs/definitions are not compiled, so broken refs there are inert).
  const seen = new Set<unknown>();
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    const o = node as Record<string, unknown>;
    // Ajv refuses an empty enum at compile time (the meta-schemas allow it)
    if (Array.isArray(o.enum) && o.enum.length === 0) return 'enum must have non-empty array';
    if (typeof o.$ref === 'string' && o.$ref !== '#') {
      const target = resolvePointer(schema, o.$ref.slice(1));
      if (target === undefined) return `can't resolve reference ${o.$ref} from id #`;
      // A chain of schemas that are nothing but a $ref, leading back to itself,
      // never reaches a schema (Ajv overflows its stack on it).
      const chain = new Set<unknown>([node]);
      let cur: unknown = target;
      while (isRefOnly(cur) && (cur as { $ref: string }).$ref !== '#') {
        if (chain.has(cur)) return `circular $ref ${o.$ref} never reaches a schema`;
        chain.add(cur);
        cur = resolvePointer(schema, (cur as { $ref: string }).$ref.slice(1));
      }
      if (chain.has(cur)) return `circular $ref ${o.$ref} never reaches a schema`;
      // A target under a keyword the meta-schema does not validate (`$defs` in
      // draft-07, an unknown keyword) is something only a real compile can judge.
      const first = decodeURIComponent(o.$ref.slice(2).split('/')[0] ?? '');
      if (!(draft === 'draft-07' ? REF_ROOTS_07 : REF_ROOTS_2020).has(first)) return fullCompileError(schema, draft);
      stack.push(target);
    }
    for (const k of APPLICATOR_MAPS) {
      const m = o[k];
      if (m && typeof m === 'object' && !Array.isArray(m)) for (const sub of Object.values(m)) stack.push(sub);
    }
    for (const k of APPLICATOR_ONE) {
      const v = o[k];
      if (Array.isArray(v)) stack.push(...v);
      else stack.push(v);
    }
    for (const k of SUBSCHEMA_LIST) if (Array.isArray(o[k])) stack.push(...(o[k] as unknown[]));
  }
  return null;
}

// Ajv inlines these ref-only shapes and overflows on a cycle of them (measured).
const REF_ANNOTATIONS = new Set(['$ref', 'description']);
function isRefOnly(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { $ref?: unknown }).$ref === 'string' && Object.keys(v).every((k) => REF_ANNOTATIONS.has(k));
}

const COMMON_ROOTS = ['properties', 'patternProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains', 'propertyNames'];
const REF_ROOTS_2020 = new Set([...COMMON_ROOTS, '$defs', 'prefixItems', 'dependentSchemas', 'unevaluatedItems', 'unevaluatedProperties']);
const REF_ROOTS_07 = new Set([...COMMON_ROOTS, 'definitions', 'additionalItems', 'dependencies']);

const APPLICATOR_MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies'];
const APPLICATOR_ONE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];


function resolvePointer(root: unknown, pointer: string): unknown {
  let cur: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** A real Ajv compile (cached with every other compile, ajv.ts). */
export function fullCompileError(schema: object, draft: SchemaDraft): string | null {
  return compileErrorOf(schema, draft);
}

// ---------------------------------------------------------------------------
// $resolve
//
// Our reading of the seed (agent-apps-tool-interface.md, "Dynamic Schema Resolution"):
// `$resolve` is a dotted path into the invocation context (e.g.
// `nonlocals.gateway.sendSchema`). Before the runtime describes a tool or validates its
// params/returns, it calls resolveJsonSchema(schema, ctx): when the path resolves to a
// non-null object, that object REPLACES the schema that carries `$resolve`; otherwise
// the static schema is used as written. We apply the same rule to nested subschemas
// (properties, items, ...) so a single property can be specialised, and resolve the
// result again (bounded) in case the resolved schema itself carries `$resolve`.
// Paths read own properties only: `__proto__`, `constructor` and `prototype` never
// resolve, so a schema cannot reach into the context's prototype chain.
// ---------------------------------------------------------------------------

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

export function pathGet(root: unknown, path: string): unknown {
  const segments = path.replace(/\[(\d+)\]/g, '.$1').split('.').filter((s) => s !== '');
  let cur: unknown = root;
  for (const seg of segments) {
    if (FORBIDDEN_SEGMENTS.has(seg)) return undefined;
    if (cur === null || (typeof cur !== 'object' && typeof cur !== 'function')) return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const SUBSCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

export function resolveJsonSchema<T>(schema: T, ctx: unknown, depth = 0): T {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > 16) return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$resolve === 'string') {
    const resolved = pathGet(ctx, s.$resolve);
    if (resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved) && resolved !== schema) {
      return resolveJsonSchema(resolved as T, ctx, depth + 1);
    }
  }
  let out: Record<string, unknown> | null = null;
  const set = (k: string, v: unknown) => {
    if (v === s[k]) return;
    out ??= { ...s };
    out[k] = v;
  };
  for (const k of SUBSCHEMA_MAPS) {
    const m = s[k];
    if (m && typeof m === 'object' && !Array.isArray(m)) {
      let changed: Record<string, unknown> | null = null;
      for (const [name, sub] of Object.entries(m)) {
        const r = resolveJsonSchema(sub, ctx, depth + 1);
        if (r !== sub) (changed ??= { ...(m as Record<string, unknown>) })[name] = r;
      }
      if (changed) set(k, changed);
    }
  }
  for (const k of SUBSCHEMA_ONE) if (s[k] && typeof s[k] === 'object') set(k, resolveJsonSchema(s[k], ctx, depth + 1));
  for (const k of SUBSCHEMA_LIST) {
    const list = s[k];
    if (Array.isArray(list)) {
      const r = list.map((x) => resolveJsonSchema(x, ctx, depth + 1));
      if (r.some((x, i) => x !== list[i])) set(k, r);
    }
  }
  return (out ?? schema) as T;
}

// ---------------------------------------------------------------------------
// Authoring checks (reader side)
// ---------------------------------------------------------------------------

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export type CheckSchemaOptions = { role: 'params' | 'returns'; maxDepth: number };

/**
 * Check a params/returns schema and report problems under `base` (JSON pointer of the
 * schema in its file). Returns the schema when usable, null when it must be dropped.
 */
export function checkToolSchema(schema: unknown, scope: FileScope, base: string, opts: CheckSchemaOptions): Record<string, unknown> | null {
  if (schema === null || schema === undefined) return null;
  if (typeof schema !== 'object' || Array.isArray(schema)) {
    scope.error('schema/not-object', `${opts.role} must be a JSON Schema object`, base);
    return null;
  }
  const s = schema as Record<string, unknown>;
  if (exceedsDepth(s, opts.maxDepth)) {
    scope.error('schema/too-deep', `${opts.role} schema is nested deeper than ${opts.maxDepth} levels`, base);
    return null;
  }
  const draft = schemaDraft(s);
  if (draft === 'unsupported') {
    scope.error('schema/draft-unsupported', `$schema ${String(s.$schema)} is not supported (use draft 2020-12, 2019-09 or draft-07)`, ptr(base, '$schema'));
    return null;
  }
  if (draft === 'unknown') scope.warn('schema/draft-unknown', `unknown $schema ${JSON.stringify(s.$schema)}; checked as draft 2020-12`, ptr(base, '$schema'));
  if (opts.role === 'params') {
    if (s.type === undefined && s.$resolve === undefined && s.$ref === undefined) scope.warn('schema/params-type-missing', 'params schema should declare "type": "object"', base);
    else if (s.type !== undefined && s.type !== 'object') {
      scope.error('schema/params-not-object', `params must be a schema of type "object" (tool arguments are an object), not ${JSON.stringify(s.type)}`, ptr(base, 'type'));
      return null;
    }
  }
  const before = scope.sink.list.length;
  walkSchema(s, base, scope, 0);
  const walkErrors = scope.sink.list.slice(before).some((d) => d.severity === 'error');
  if (!walkErrors) {
    const err = schemaCompileError(s, draft === 'unknown' ? '2020-12' : draft);
    if (err) {
      scope.error('schema/compile-failed', `${opts.role} schema does not compile: ${err}`, base);
      return null;
    }
  }
  return walkErrors ? null : s;
}

function walkSchema(s: unknown, at: string, scope: FileScope, depth: number): void {
  if (s === null || typeof s !== 'object' || Array.isArray(s) || depth > 64) return;
  const o = s as Record<string, unknown>;
  if (o.type !== undefined) {
    const types = Array.isArray(o.type) ? o.type : [o.type];
    for (const t of types) {
      if (typeof t !== 'string' || !TYPES.has(t)) scope.error('schema/type-invalid', `${JSON.stringify(t)} is not a JSON Schema type (string, number, integer, boolean, object, array, null)`, ptr(at, 'type'));
    }
  }
  if (o.pattern !== undefined) {
    if (typeof o.pattern !== 'string') scope.error('schema/pattern-invalid', 'pattern must be a string', ptr(at, 'pattern'));
    else checkPattern(o.pattern, `pattern ${JSON.stringify(o.pattern.slice(0, 80))}`, ptr(at, 'pattern'), scope);
  }
  if (o.patternProperties && typeof o.patternProperties === 'object') {
    for (const k of Object.keys(o.patternProperties)) checkPattern(k, `patternProperties key ${JSON.stringify(k.slice(0, 80))}`, ptr(ptr(at, 'patternProperties'), k), scope);
  }
  if (o.enum !== undefined) {
    if (!Array.isArray(o.enum)) scope.error('schema/enum-invalid', 'enum must be an array', ptr(at, 'enum'));
    else if (o.enum.length === 0) scope.error('schema/enum-empty', 'enum must have at least one value', ptr(at, 'enum'));
  }
  if (o.required !== undefined) {
    if (!Array.isArray(o.required) || o.required.some((r) => typeof r !== 'string')) scope.error('schema/required-invalid', 'required must be an array of property names', ptr(at, 'required'));
    else if (o.properties && typeof o.properties === 'object' && !o.additionalProperties && !o.patternProperties) {
      for (const r of o.required as string[]) {
        if (!Object.prototype.hasOwnProperty.call(o.properties, r)) scope.warn('schema/required-unknown', `required property "${r}" is not listed in properties`, ptr(at, 'required'));
      }
    }
  }
  for (const k of SUBSCHEMA_MAPS) {
    const m = o[k];
    if (m && typeof m === 'object' && !Array.isArray(m)) for (const [name, sub] of Object.entries(m)) walkSchema(sub, ptr(ptr(at, k), name), scope, depth + 1);
  }
  for (const k of SUBSCHEMA_ONE) if (o[k] && typeof o[k] === 'object') walkSchema(o[k], ptr(at, k), scope, depth + 1);
  for (const k of SUBSCHEMA_LIST) if (Array.isArray(o[k])) (o[k] as unknown[]).forEach((x, i) => walkSchema(x, ptr(ptr(at, k), i), scope, depth + 1));
}

/** A pattern must be valid JavaScript and run on the linear-time engine (linear-regexp.ts). */
function checkPattern(pattern: string, what: string, at: string, scope: FileScope): void {
  try {
    new RegExp(pattern, 'u'); // syntax only: compiling is safe, matching is what can blow up
  } catch (e) {
    scope.error('schema/pattern-invalid', `${what} is not a valid regular expression: ${(e as Error).message}`, at);
    return;
  }
  try {
    compileLinear(pattern, 'u');
  } catch (e) {
    scope.error('schema/pattern-unsupported', `${what} cannot run on the linear-time regex engine: ${e instanceof PatternError ? e.message : String(e)}`, at);
  }
}
