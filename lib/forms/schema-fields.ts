// A tool's JSON Schema `params` as form fields and examples: what the parameter table,
// the "try this tool" form, the playground's example call and the manual editor show.
// Pure and dependency-free (client and server both use it).

export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export type SchemaField = {
  name: string;
  /** what the table shows: string, integer, "a" | "b", string[] … */
  type: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  example?: unknown;
};

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

function typeOf(s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const t = Array.isArray(s.type) ? s.type.filter((x) => x !== 'null').join(' | ') : typeof s.type === 'string' ? s.type : '';
  if (t === 'array' && isObject(s.items)) return `${typeOf(s.items) || 'any'}[]`;
  if (t) return t;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return (s[key] as unknown[]).filter(isObject).map(typeOf).join(' | ');
  }
  return 'any';
}

function kindOf(s: Schema): FieldKind {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) return 'enum';
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (t === 'string') return typeof s.maxLength === 'number' && s.maxLength <= 200 ? 'string' : s.format || s.pattern ? 'string' : 'text';
  if (t === 'number' || t === 'integer' || t === 'boolean') return t;
  return 'json';
}

/** The top-level properties of an object schema, required ones first, in declared order. */
export function describeParams(params: Record<string, unknown> | null | undefined): SchemaField[] {
  if (!isObject(params) || !isObject(params.properties)) return [];
  const required = new Set(Array.isArray(params.required) ? params.required.filter((r): r is string => typeof r === 'string') : []);
  const fields = Object.entries(params.properties).map(([name, raw]): SchemaField => {
    const s = isObject(raw) ? raw : {};
    const examples = Array.isArray(s.examples) ? s.examples : [];
    return {
      name,
      type: typeOf(s),
      kind: kindOf(s),
      required: required.has(name),
      description: typeof s.description === 'string' ? s.description : '',
      ...(s.default !== undefined ? { default: s.default } : {}),
      ...(Array.isArray(s.enum) ? { enum: s.enum } : {}),
      ...(typeof s.minimum === 'number' ? { minimum: s.minimum } : {}),
      ...(typeof s.maximum === 'number' ? { maximum: s.maximum } : {}),
      ...(examples.length ? { example: examples[0] } : {}),
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** A plausible value for one field: its example, default, first enum value, or a stand-in by type. */
export function exampleValue(f: SchemaField): unknown {
  if (f.example !== undefined) return f.example;
  if (f.default !== undefined) return f.default;
  if (f.enum?.length) return f.enum[0];
  switch (f.kind) {
    case 'string':
    case 'text':
      return f.name === 'url' ? 'https://example.com' : `example ${f.name.replace(/[_-]/g, ' ')}`;
    case 'number':
    case 'integer':
      return f.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return f.type.endsWith('[]') ? [] : {};
  }
}

/** Arguments for an example call: every required field (optional ones only when they have an example). */
export function exampleArgs(params: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of describeParams(params)) if (f.required || f.example !== undefined) args[f.name] = exampleValue(f);
  return args;
}

export type FormValues = Record<string, string | boolean>;

/** The form's starting values: defaults filled in, the rest empty. */
export function initialValues(fields: SchemaField[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (f.kind === 'boolean') values[f.name] = f.default === true;
    else if (f.default === undefined) values[f.name] = f.kind === 'enum' && f.required && f.enum?.length ? String(f.enum[0]) : '';
    else values[f.name] = f.kind === 'json' || typeof f.default === 'object' ? JSON.stringify(f.default, null, 2) : String(f.default);
  }
  return values;
}

/** Form values to tool arguments; empty optional fields are left out. Problems are per field. */
export function valuesToArgs(fields: SchemaField[], values: FormValues): { args: Record<string, unknown>; problems: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const f of fields) {
    const raw = values[f.name];
    if (f.kind === 'boolean') {
      if (raw === true || f.required || f.default !== undefined) args[f.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    if (text.trim() === '') {
      if (f.required) problems[f.name] = 'required';
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) problems[f.name] = `not ${f.kind === 'integer' ? 'an integer' : 'a number'}`;
      else args[f.name] = n;
    } else if (f.kind === 'enum') {
      args[f.name] = f.enum?.find((v) => String(v) === text) ?? text;
    } else if (f.kind === 'json') {
      try {
        args[f.name] = JSON.parse(text);
      } catch {
        problems[f.name] = 'not valid JSON';
      }
    } else args[f.name] = text;
  }
  return { args, problems };
}
