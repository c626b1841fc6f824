// Compiles a `returns` JSON Schema with the Ajv flavour its $schema asks for
// (2020-12 and draft-07 are both seen in the wild); `$resolve` is a known keyword.

import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { AgentError } from './errors';

export type ReturnsValidator = (value: unknown) => string | null;

export function compileReturns(schema: Record<string, unknown>): ReturnsValidator {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const opts = { strict: false, allErrors: true } as const;
  const ajv = dialect.includes('2020-12') ? new Ajv2020(opts) : dialect.includes('2019-09') ? new Ajv2019(opts) : new Ajv(opts);
  ajv.addKeyword({ keyword: '$resolve', schemaType: 'string' });
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new AgentError('agent/config', `returns schema does not compile: ${(err as Error).message}`);
  }
  return (value) => (validate(value) ? null : ajv.errorsText(validate.errors, { dataVar: 'result' }));
}
