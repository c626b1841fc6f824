// A tool's own examples: calls with their arguments and, optionally, the result they
// must give. The registry runs them in the sandbox at publish (lib/evidence) and shows
// whether each gave its expected result. Every format that can carry them reads them
// here: `examples` on a tools.json entry (Skill Tools, malv), `metadata.examples` in a
// frontmatter (SKILL.md, *.skill.md, a code skill's exported frontmatter).

import type { FileScope } from './diagnostic-sink';
import { ptr } from './diagnostic-sink';
import { isPlainObject } from './package';
import { compileToolSchema } from './schema';
import type { ToolExample } from './types';

export const MAX_TOOL_EXAMPLES = 8;
const MAX_EXAMPLE_BYTES = 16 * 1024;

/**
 * Reads an `examples` list: each entry `{arguments, expected?, name?}` (`args`/`input`
 * and `result`/`output` are read too). Bad entries are skipped with a diagnostic;
 * arguments that do not match `params` are a warning (the run would fail validation).
 */
export function readToolExamples(raw: unknown, at: string, scope: FileScope | null, params: Record<string, unknown> | null): ToolExample[] | null {
  if (raw === undefined) return null;
  if (!Array.isArray(raw)) {
    scope?.error('tool/examples-invalid', 'examples must be a list of {arguments, expected} objects', at);
    return null;
  }
  let validate: ((v: unknown) => boolean) | null = null;
  if (params) {
    try {
      const fn = compileToolSchema(params);
      validate = (v) => fn(structuredClone(v)) === true;
    } catch {
      validate = null; // the schema's own diagnostic says why
    }
  }
  const out: ToolExample[] = [];
  raw.forEach((entry: unknown, i: number) => {
    const where = ptr(at, String(i));
    if (i >= MAX_TOOL_EXAMPLES) {
      if (i === MAX_TOOL_EXAMPLES) scope?.warn('tool/examples-too-many', `only the first ${MAX_TOOL_EXAMPLES} examples are run`, where);
      return;
    }
    if (!isPlainObject(entry)) {
      scope?.error('tool/example-invalid', 'an example is an object {arguments, expected}', where);
      return;
    }
    const args = entry.arguments ?? entry.args ?? entry.input ?? {};
    if (!isPlainObject(args)) {
      scope?.error('tool/example-invalid', 'an example\'s arguments must be an object', ptr(where, 'arguments'));
      return;
    }
    let size = 0;
    try {
      size = Buffer.byteLength(JSON.stringify(entry));
    } catch {
      size = Infinity;
    }
    if (size > MAX_EXAMPLE_BYTES) {
      scope?.error('tool/example-too-large', `an example may be at most ${MAX_EXAMPLE_BYTES} bytes of JSON`, where);
      return;
    }
    if (validate && !validate(args)) scope?.warn('tool/example-args-invalid', `example ${i + 1}'s arguments do not match the tool's parameters`, ptr(where, 'arguments'));
    const example: ToolExample = { arguments: args };
    const expected = 'expected' in entry ? entry.expected : 'result' in entry ? entry.result : 'output' in entry ? entry.output : undefined;
    if (expected !== undefined) example.expected = expected;
    if (typeof entry.name === 'string' && entry.name.trim()) example.name = entry.name.trim().slice(0, 120);
    out.push(example);
  });
  return out;
}
