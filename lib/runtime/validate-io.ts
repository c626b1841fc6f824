// Steps 5 and 7 of the pipeline: arguments against the tool's params schema (on a copy,
// so a handler never sees the caller's object), and the result against its returns schema.

import { RuntimeError } from './errors';
import { schemaOf, type KernelState } from './kernel-state';
import type { ValidateFunction } from 'ajv';
import { compileSchema, formatSchemaErrors } from './schema';
import type { ToolEntry } from './tool-index';

// The server keeps a version's manifest in memory across requests, so its schema objects
// come back identical: remembering the validator per object skips even the content-keyed
// cache lookup (which serializes the schema) on every call.
const byObject = { params: new WeakMap<object, ValidateFunction>(), returns: new WeakMap<object, ValidateFunction>() };

function compileOrThrow(entry: ToolEntry, which: 'params' | 'returns', schema: Record<string, unknown>, useDefaults: boolean): ValidateFunction {
  const known = byObject[which].get(schema);
  if (known) return known;
  try {
    const validate = compileSchema(schema, useDefaults);
    byObject[which].set(schema, validate);
    return validate;
  } catch (err) {
    throw new RuntimeError('schema/invalid', `${which} schema of '${entry.ref}' does not compile: ${(err as Error).message}`);
  }
}

export function validateParams(k: KernelState, entry: ToolEntry, args: unknown): unknown {
  const schema = schemaOf(k, entry.tool.params);
  if (!schema) return args;
  const value = args === undefined || args === null ? {} : structuredClone(args);
  const validate = compileOrThrow(entry, 'params', schema, true);
  if (!validate(value)) throw new RuntimeError('params/invalid', `invalid arguments for '${entry.ref}': ${formatSchemaErrors(validate.errors)}`);
  return value;
}

/**
 * A markdown (context) tool returns its instructions, for the agent to follow; its
 * `returns` schema describes the answer the agent gives by following them, not the
 * instructions, so there is nothing to check the instructions against.
 */
function returnsInstructions(entry: ToolEntry): boolean {
  const { kind, ref } = entry.tool.handler;
  return kind === 'markdown' || !!ref?.startsWith('inline://markdown,');
}

export function validateReturns(k: KernelState, entry: ToolEntry, result: unknown): void {
  const schema = schemaOf(k, entry.tool.returns);
  if (!schema || returnsInstructions(entry)) return;
  const validate = compileOrThrow(entry, 'returns', schema, false);
  if (!validate(result ?? null)) {
    throw new RuntimeError('returns/invalid', `'${entry.ref}' returned a value that does not match its returns schema: ${formatSchemaErrors(validate.errors)}`);
  }
}
