// Example arguments for a tool, valid against its own `params` schema: what the
// playground's first script and the "try this tool" form start from. The tool's own
// `examples` come first; otherwise json-schema-faker samples the schema (formats, enums,
// patterns, ranges, minItems, nested objects, `$ref`), seeded so a page shows the same
// example every time, and Ajv checks the sample before anyone sees it. Server only: the
// sampler and Ajv stay out of the browser bundle.
import { generateSync } from 'json-schema-faker';
import { compileToolSchema } from '../skills';
import { exampleArgs as standInArgs } from './schema-fields';

type Schema = Record<string, unknown>;

export type ExampleArgs = {
  args: Record<string, unknown>;
  /** examples: the tool's own; sampled: from the schema; stand-in: neither worked, see `problem` */
  source: 'examples' | 'sampled' | 'stand-in';
  /** why the arguments may not be valid (only for a stand-in) */
  problem: string | null;
};

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** "e.g. \"mi\"" or "e.g. http://host/path" in a description: the author's own example. */
function exampleFromDescription(description: unknown): string | null {
  if (typeof description !== 'string') return null;
  const m = /e\.g\.,?\s+(?:"([^"]+)"|'([^']+)'|`([^`]+)`|(\S+?))[.,;)]?(?:\s|$)/i.exec(description);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? null) : null;
}

/** Plain text for a free-form string field: readable, unlike a sampler's random letters. */
const READABLE_TEXT = 'The quick brown fox jumps over the lazy dog.';

/** Whether a readable string fits the field's length, pattern and URL format (the final Ajv check has the last word). */
function fitsField(p: Schema, example: string): boolean {
  const length = [...example].length;
  if ((typeof p.minLength === 'number' && length < p.minLength) || (typeof p.maxLength === 'number' && length > p.maxLength)) return false;
  if (typeof p.pattern === 'string') {
    try {
      if (!new RegExp(p.pattern, 'u').test(example)) return false;
    } catch {
      return false;
    }
  }
  if (p.format === 'uri' || p.format === 'url') return URL.canParse(example);
  return !p.format;
}

/** A round number inside the field's range: 1, or the nearest bound. */
function readableNumber(p: Schema): number {
  const min = typeof p.minimum === 'number' ? p.minimum : typeof p.exclusiveMinimum === 'number' ? p.exclusiveMinimum + 1 : null;
  const max = typeof p.maximum === 'number' ? p.maximum : typeof p.exclusiveMaximum === 'number' ? p.exclusiveMaximum - 1 : null;
  if (min !== null && min > 1) return p.type === 'integer' ? Math.ceil(min) : min;
  if (max !== null && max < 1) return p.type === 'integer' ? Math.floor(max) : max;
  return 1;
}

/**
 * A copy of the schema where properties without an example, default or const carry a
 * readable one the sampler then uses: an enum's first value, the description's "e.g.",
 * plain text for free-form strings, a round number in range.
 */
function withReadableStrings(schema: unknown, depth = 0): unknown {
  if (depth > 20 || !schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => withReadableStrings(s, depth + 1));
  const s: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && isObject(v)) {
      s.properties = Object.fromEntries(
        Object.entries(v).map(([name, prop]) => {
          const p = withReadableStrings(prop, depth + 1);
          if (!isObject(p) || p.examples !== undefined || p.default !== undefined || p.const !== undefined) return [name, p];
          // an enum's first value, as authors list the usual one first
          // (narrowed to it: the sampler prefers a random enum value to an example)
          if (Array.isArray(p.enum)) return [name, p.enum.length ? { ...p, enum: [p.enum[0]] } : p];
          if (p.type === 'number' || p.type === 'integer') return [name, p.multipleOf ? p : { ...p, examples: [readableNumber(p)] }];
          if (p.type !== 'string' || p.contentEncoding) return [name, p];
          const given = exampleFromDescription(p.description);
          if (given !== null && fitsField(p, given)) return [name, { ...p, examples: [given] }];
          return [name, fitsField(p, READABLE_TEXT) ? { ...p, examples: [READABLE_TEXT] } : p];
        }),
      );
    } else s[k] = k === 'enum' || k === 'const' || k === 'examples' || k === 'default' ? v : withReadableStrings(v, depth + 1);
  }
  return s;
}

function sample(schema: unknown): unknown {
  return generateSync(schema as Parameters<typeof generateSync>[0], {
    seed: 1,
    useExamplesValue: true,
    useDefaultValue: true,
    // required properties only: the smallest call that is valid
    optionalsProbability: 0,
    maxItems: 3,
    maxLength: 80,
    failOnInvalidTypes: false,
  });
}

export function buildExampleArgs(params: Record<string, unknown> | null | undefined): ExampleArgs {
  if (!isObject(params)) return { args: {}, source: 'sampled', problem: null };
  let validate: ReturnType<typeof compileToolSchema>;
  try {
    validate = compileToolSchema(params);
  } catch (err) {
    return { args: standInArgs(params), source: 'stand-in', problem: `the parameter schema does not compile: ${err instanceof Error ? err.message : String(err)}` };
  }
  const valid = (v: unknown): v is Record<string, unknown> => isObject(v) && validate(structuredClone(v)) === true;

  // 1. the tool's own examples of a whole call
  for (const e of Array.isArray(params.examples) ? params.examples : []) if (valid(e)) return { args: e, source: 'examples', problem: null };

  // 2. sampled, with readable strings; then as is (the call-level examples were tried above)
  const { examples: _tried, ...schemaOnly } = params;
  for (const schema of [withReadableStrings(schemaOnly), schemaOnly]) {
    let sampled: unknown;
    try {
      sampled = sample(schema);
    } catch {
      continue;
    }
    if (!valid(sampled)) continue;
    let args = sampled;
    // optional top-level fields the author gave an example for are worth showing too
    const props = isObject(params.properties) ? params.properties : {};
    for (const [name, prop] of Object.entries(props)) {
      if (name in args || !isObject(prop) || !Array.isArray(prop.examples) || prop.examples.length === 0) continue;
      const more = { ...args, [name]: prop.examples[0] };
      if (valid(more)) args = more;
    }
    return { args, source: 'sampled', problem: null };
  }

  // 3. nothing valid: the old stand-ins, and say so
  const args = standInArgs(params);
  validate(structuredClone(args));
  const why = (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(arguments)'} ${e.message}`)
    .join('; ');
  return { args, source: 'stand-in', problem: `no example valid against the parameters could be built${why ? `: ${why}` : ''}; edit the arguments before running` };
}
