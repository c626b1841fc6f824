// The kernel's only Ajv use. `$resolve` and draft detection come from lib/skills; the
// validators are our own Ajv instances because the runtime applies `default`s to the
// arguments a tool receives (Rye parameters declare them), which the reader's shared
// instances must not do.

import { createRequire } from 'node:module';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { pathGet, resolveJsonSchema as resolveSkillSchema, schemaDraft } from '../skills';

export { pathGet };

const require = createRequire(import.meta.url);
// ajv ships CommonJS; createRequire avoids default-export interop differences between tsx, vitest and tsc.
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020').default;
const Ajv2019 = require('ajv/dist/2019').default as typeof import('ajv/dist/2019').default;
const AjvDraft07 = require('ajv').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

type AjvInstance = InstanceType<typeof AjvDraft07>;
type Draft = '2020-12' | '2019-09' | 'draft-07';

const instances = new Map<string, AjvInstance>();
function ajvFor(draft: Draft, useDefaults: boolean): AjvInstance {
  let ajv = instances.get(`${draft}:${useDefaults}`);
  if (!ajv) {
    const opts = { strict: false, allErrors: true, allowUnionTypes: true, useDefaults, logger: false as const };
    const Ctor = (draft === '2020-12' ? Ajv2020 : draft === '2019-09' ? Ajv2019 : AjvDraft07) as typeof AjvDraft07;
    ajv = new Ctor(opts);
    addFormats(ajv);
    // `$resolve` is an annotation read by resolveJsonSchema, never a validation error.
    ajv.addKeyword({ keyword: '$resolve', schemaType: 'string' });
    instances.set(`${draft}:${useDefaults}`, ajv);
  }
  return ajv;
}

// Compiled validators by schema content: the server loads manifests from the database
// per request, so identical schemas arrive as new objects. Bounded, and an evicted
// schema is removed from Ajv's own cache too, so a long-running server does not grow.
const MAX_COMPILED = 2000;
const compiled = new Map<string, { fn: ValidateFunction; ajv: AjvInstance; schema: object }>();

/**
 * Compiles a params/returns schema (draft picked by `$schema`, 2020-12 by default); cached by
 * content. With `useDefaults` (params) validation fills in declared defaults.
 */
export function compileSchema(schema: Record<string, unknown>, useDefaults = true): ValidateFunction {
  const key = `${useDefaults ? 1 : 0}${JSON.stringify(schema)}`;
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key); // most recently used goes last
    compiled.set(key, hit);
    return hit.fn;
  }
  const d = schemaDraft(schema);
  if (d === 'unsupported') throw new Error(`unsupported $schema ${String(schema.$schema)}`);
  // Ajv refuses two schemas with one $id; the kernel never looks schemas up by id.
  const { $id: _id, ...rest } = structuredClone(schema);
  const ajv = ajvFor(d === 'unknown' ? '2020-12' : d, useDefaults);
  const fn = ajv.compile(rest);
  compiled.set(key, { fn, ajv, schema: rest });
  if (compiled.size > MAX_COMPILED) {
    const [oldestKey, oldest] = compiled.entries().next().value as [string, { ajv: AjvInstance; schema: object }];
    compiled.delete(oldestKey);
    oldest.ajv.removeSchema(oldest.schema);
  }
  return fn;
}

/** `$resolve`: when the path names a non-null object in `context`, it replaces the static schema (nested too). */
export function resolveJsonSchema(
  schema: Record<string, unknown> | null,
  context: Record<string, unknown> | undefined,
): Record<string, unknown> | null {
  if (!schema || !context) return schema;
  return resolveSkillSchema(schema, context);
}

export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'does not match the schema';
  return errors
    .slice(0, 5)
    .map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}
