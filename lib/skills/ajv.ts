// The one Ajv setup of the project: one instance per (draft, useDefaults), every
// publisher pattern through the linear-time engine, `$resolve` registered, formats
// added, and one bounded cache of compiled validators keyed by content. The reader
// (authoring checks) and the runtime (arguments and results) both compile here.

import Ajv2020Module from 'ajv/dist/2020.js';
import Ajv2019Module from 'ajv/dist/2019.js';
import AjvDraft7Module from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { linearRegExp } from './linear-regexp';

// These packages are CommonJS with a `default` property; tsx/vitest and tsc disagree
// on interop, so take whichever is the constructor.
type AjvInstance = import('ajv').default;
type AjvCtor = new (opts: Record<string, unknown>) => AjvInstance;
const pick = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;
const Ajv2020 = pick<AjvCtor>(Ajv2020Module);
const Ajv2019 = pick<AjvCtor>(Ajv2019Module);
const AjvDraft7 = pick<AjvCtor>(AjvDraft7Module);
const addFormats = pick<(ajv: AjvInstance) => unknown>(addFormatsModule);

export type SchemaDraft = '2020-12' | '2019-09' | 'draft-07';

const instances = new Map<string, AjvInstance>();

/**
 * The Ajv instance for a draft. `useDefaults` (the runtime, for params) fills declared
 * defaults into the value validated; the reader's instances never change data.
 */
export function ajvFor(draft: SchemaDraft = '2020-12', useDefaults = false): AjvInstance {
  const key = `${draft}:${useDefaults}`;
  let ajv = instances.get(key);
  if (!ajv) {
    const Ctor = draft === '2020-12' ? Ajv2020 : draft === '2019-09' ? Ajv2019 : AjvDraft7;
    ajv = new Ctor({
      strict: false,
      allErrors: true,
      allowUnionTypes: true,
      logger: false,
      validateSchema: true,
      useDefaults,
      code: { regExp: linearRegExp },
    });
    addFormats(ajv);
    // `$resolve` is an annotation read by resolveJsonSchema, never a validation error.
    ajv.addKeyword({ keyword: '$resolve', schemaType: 'string' });
    instances.set(key, ajv);
  }
  return ajv;
}

export class SchemaCompileError extends Error {
  readonly code = 'schema/compile-failed';
}

type Entry = { fn: ValidateFunction; ajv: AjvInstance; schema: object } | { error: string };

// Compiled validators by content: manifests arrive from the database per request, so
// identical schemas come as new objects. Bounded (least recently used goes), and an
// evicted schema leaves Ajv's own cache too, so a long-running server does not grow.
const MAX_COMPILED = 2000;
const compiled = new Map<string, Entry>();
const byObject = [new WeakMap<object, ValidateFunction>(), new WeakMap<object, ValidateFunction>()];

/** Compile (or find) a validator; the result is cached whether it compiles or not. */
function compileEntry(schema: object, draft: SchemaDraft, useDefaults: boolean): Entry {
  const key = `${draft}:${useDefaults ? 1 : 0}:${JSON.stringify(schema)}`;
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key); // most recently used goes last
    compiled.set(key, hit);
    return hit;
  }
  const ajv = ajvFor(draft, useDefaults);
  const copy = structuredClone(schema);
  let entry: Entry | null = null;
  // Two skills may use the same `$id`: the newer one takes the id over (a compiled
  // validator keeps working; only lookups by id would change, and nothing looks up).
  for (let attempt = 0; entry === null; attempt++) {
    try {
      entry = { fn: ajv.compile(copy), ajv, schema: copy };
    } catch (e) {
      const taken = /schema with key or id "(.*)" already exists/.exec((e as Error).message);
      ajv.removeSchema(copy);
      if (taken && attempt < 8) ajv.removeSchema(taken[1]);
      else entry = { error: (e as Error).message };
    }
  }
  compiled.set(key, entry);
  if (compiled.size > MAX_COMPILED) {
    const [oldestKey, oldest] = compiled.entries().next().value as [string, Entry];
    compiled.delete(oldestKey);
    if ('ajv' in oldest) oldest.ajv.removeSchema(oldest.schema);
  }
  return entry;
}

/** Compile a schema, or throw SchemaCompileError with Ajv's reason. */
export function compileWith(schema: object, draft: SchemaDraft, useDefaults: boolean): ValidateFunction {
  const own = byObject[useDefaults ? 1 : 0].get(schema);
  if (own) return own;
  const e = compileEntry(schema, draft, useDefaults);
  if ('error' in e) throw new SchemaCompileError(e.error);
  byObject[useDefaults ? 1 : 0].set(schema, e.fn);
  return e.fn;
}

/** Why a schema does not compile, or null (a real compile, cached like any other). */
export function compileErrorOf(schema: object, draft: SchemaDraft): string | null {
  const e = compileEntry(schema, draft, false);
  return 'error' in e ? e.error : null;
}

/** How many validators the cache holds (tests and health). */
export function compiledCount(): number {
  return compiled.size;
}
