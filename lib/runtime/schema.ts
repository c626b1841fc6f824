// The kernel's only Ajv use. lib/skills will export compileToolSchema/resolveJsonSchema;
// once it does, this module can delegate to them without touching its callers.

import { createRequire } from 'node:module';
import type { ValidateFunction, ErrorObject } from 'ajv';

const require = createRequire(import.meta.url);
// ajv ships CommonJS; createRequire avoids default-export interop differences between tsx, vitest and tsc.
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020').default;
const AjvDraft07 = require('ajv').default as typeof import('ajv').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

type AjvInstance = InstanceType<typeof AjvDraft07>;

function makeAjv(kind: '2020' | '07'): AjvInstance {
  const opts = { strict: false, allErrors: true, allowUnionTypes: true, useDefaults: true, validateFormats: true };
  const ajv = (kind === '2020' ? new Ajv2020(opts) : new AjvDraft07(opts)) as AjvInstance;
  addFormats(ajv);
  // `$resolve` is an annotation read by resolveJsonSchema, never a validation error.
  ajv.addKeyword({ keyword: '$resolve', schemaType: 'string' });
  return ajv;
}

let ajv2020: AjvInstance | null = null;
let ajv07: AjvInstance | null = null;
const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles a params/returns schema (draft 2020-12 by default, draft-07 when it says so); cached per schema object. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const hit = compiled.get(schema);
  if (hit) return hit;
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const draft07 = /draft-0[4-7]/.test(declared);
  const ajv = draft07 ? (ajv07 ??= makeAjv('07')) : (ajv2020 ??= makeAjv('2020'));
  // Ajv refuses to compile two schemas with the same $id; drop it, the kernel never looks schemas up by id.
  const { $id: _id, ...rest } = schema;
  const fn = ajv.compile(rest);
  compiled.set(schema, fn);
  return fn;
}

/** Follows a dotted path (`nonlocals.gateway.sendSchema`) into an object. */
export function pathGet(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** `$resolve`: when the path names a non-null object in `context`, it replaces the static schema. */
export function resolveJsonSchema(
  schema: Record<string, unknown> | null,
  context: Record<string, unknown> | undefined,
): Record<string, unknown> | null {
  if (!schema || typeof schema.$resolve !== 'string' || !context) return schema;
  const found = pathGet(context, schema.$resolve);
  return found && typeof found === 'object' && !Array.isArray(found) ? (found as Record<string, unknown>) : schema;
}

export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'does not match the schema';
  return errors
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`)
    .join('; ');
}
