// Compiles a `returns` JSON Schema through lib/skills' one Ajv setup: the dialect its
// $schema asks for (2020-12 and draft-07 are both seen in the wild), `$resolve` a known
// keyword, and its patterns on the linear-time engine (a caller's schema must not stall
// the web process with a catastrophic pattern).

import { compileToolSchema, getAjv } from '../skills';
import { AgentError } from './errors';

export type ReturnsValidator = (value: unknown) => string | null;

export function compileReturns(schema: Record<string, unknown>): ReturnsValidator {
  let validate: ReturnType<typeof compileToolSchema>;
  try {
    validate = compileToolSchema(schema);
  } catch (err) {
    throw new AgentError('agent/config', `returns schema does not compile: ${(err as Error).message}`);
  }
  return (value) => (validate(value) ? null : getAjv().errorsText(validate.errors, { dataVar: 'result' }));
}
