// The kernel's schema checks go through lib/skills' one Ajv setup (lib/skills/ajv.ts):
// the same instances, the same linear-time engine for publisher patterns, the same
// bounded cache. Params are compiled with `useDefaults` (Rye parameters declare
// defaults the tool then receives); results are not.

import type { ErrorObject, ValidateFunction } from 'ajv';
import { compileToolSchema, pathGet, resolveJsonSchema as resolveSkillSchema } from '../skills';

export { pathGet };

/**
 * Compiles a params/returns schema (draft picked by `$schema`, 2020-12 by default); cached by
 * content. With `useDefaults` (params) validation fills in declared defaults.
 */
export function compileSchema(schema: Record<string, unknown>, useDefaults = true): ValidateFunction {
  return compileToolSchema(schema, { useDefaults });
}

/** `$resolve`: when the path names a non-null object in `context`, it replaces the static schema (nested too). */
export function resolveJsonSchema(schema: Record<string, unknown> | null, context: Record<string, unknown> | undefined): Record<string, unknown> | null {
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
