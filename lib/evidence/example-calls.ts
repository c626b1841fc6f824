// The calls a publish-time run makes for one tool: its own examples (with their expected
// results), else the JSON Schema `examples` of its params (whole calls at the top, or one
// value per property), else one input sampled from the schema, labelled a smoke run.
import { buildExampleArgs } from '../forms';
import type { ToolManifest } from '../skills';
import type { ExampleSource } from './types';

export type ExampleCall = { label: string; source: ExampleSource; arguments: Record<string, unknown>; expected?: unknown; hasExpected: boolean };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const MAX_CALLS = 8;

export function exampleCallsFor(tool: ToolManifest): ExampleCall[] {
  if (tool.examples?.length) {
    return tool.examples.slice(0, MAX_CALLS).map((e, i) => ({
      label: e.name ?? `example ${i + 1}`,
      source: 'example',
      arguments: e.arguments,
      ...('expected' in e ? { expected: e.expected } : {}),
      hasExpected: 'expected' in e,
    }));
  }
  const params = tool.params;
  if (isObject(params)) {
    const whole = (Array.isArray(params.examples) ? params.examples : []).filter(isObject).slice(0, MAX_CALLS);
    if (whole.length) return whole.map((args, i) => ({ label: `schema example ${i + 1}`, source: 'schema', arguments: args, hasExpected: false }));
    const props = isObject(params.properties) ? params.properties : {};
    const perProperty = Object.entries(props).filter(([, p]) => isObject(p) && Array.isArray(p.examples) && p.examples.length);
    if (perProperty.length) {
      // the schema's own values where it gives them, sampled values for the rest
      const base = buildExampleArgs(params).args;
      const args = { ...base, ...Object.fromEntries(perProperty.map(([k, p]) => [k, (p as { examples: unknown[] }).examples[0]])) };
      return [{ label: 'schema example', source: 'schema', arguments: args, hasExpected: false }];
    }
  }
  return [{ label: 'smoke run', source: 'smoke', arguments: buildExampleArgs(params).args, hasExpected: false }];
}
