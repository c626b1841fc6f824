// Pure computation: runs in a sandbox without Node APIs.

export const frontmatter = {
  name: 'json-query',
  description:
    'Pick values out of a JSON document with a path expression (a.b[0].c, wildcards, filters) and optionally count, sum or list distinct results. Use instead of reading large JSON by eye.',
  metadata: {
    version: '1.0.0',
    tags: ['json', 'data'],
    params: {
      type: 'object',
      properties: {
        json: { description: 'The JSON document: an object/array, or a string holding JSON text.' },
        path: {
          type: 'string',
          description:
            'Path expression: dot keys (a.b), indexes ([0], [-1]), wildcard (* or [*]), recursive descent (..name), filters ([?price<10], [?tags~"x"]). Empty path = the whole document.',
        },
        aggregate: { type: 'string', enum: ['none', 'count', 'sum', 'min', 'max', 'distinct'], description: 'Reduce the results (default none).' },
      },
      required: ['json', 'path'],
      examples: [{ json: { items: [{ name: 'pen', price: 2 }, { name: 'book', price: 12 }] }, path: 'items[?price<10].name' }],
    },
    returns: {
      type: 'object',
      properties: {
        results: { type: 'array', description: 'Every value the path selected, in document order.' },
        value: { description: 'The aggregate, when one was asked for.' },
      },
      required: ['results'],
    },
  },
} as const;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Step = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'wild' } | { kind: 'deep'; key: string } | { kind: 'filter'; key: string; op: string; value: Json };

function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  const re = /\.\.([A-Za-z0-9_$-]+|\*)|\.?([A-Za-z_$][A-Za-z0-9_$-]*)|\.?\*|\[(-?\d+)\]|\[\*\]|\[\s*["']([^"']*)["']\s*\]|\[\?\s*([A-Za-z0-9_$.-]+)\s*(==|!=|<=|>=|<|>|~)\s*([^\]]+)\]/y;
  let i = 0;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m || m[0] === '') throw new Error(`cannot read the path at "${path.slice(i)}"`);
    if (m[1] !== undefined) steps.push({ kind: 'deep', key: m[1] });
    else if (m[2] !== undefined) steps.push({ kind: 'key', key: m[2] });
    else if (m[3] !== undefined) steps.push({ kind: 'index', index: Number(m[3]) });
    else if (m[4] !== undefined) steps.push({ kind: 'key', key: m[4] });
    else if (m[5] !== undefined) {
      let v: Json;
      const raw = m[7].trim();
      try {
        v = JSON.parse(raw);
      } catch {
        v = raw.replace(/^['"]|['"]$/g, '');
      }
      steps.push({ kind: 'filter', key: m[5], op: m[6], value: v });
    } else steps.push({ kind: 'wild' });
    i = re.lastIndex;
  }
  return steps;
}

function children(v: Json): Json[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  return [];
}

function get(v: Json, dotted: string): Json | undefined {
  let cur: Json | undefined = v;
  for (const k of dotted.split('.')) {
    if (cur && typeof cur === 'object' && !Array.isArray(cur) && Object.prototype.hasOwnProperty.call(cur, k)) cur = cur[k];
    else return undefined;
  }
  return cur;
}

function test(a: Json | undefined, op: string, b: Json): boolean {
  switch (op) {
    case '==': return JSON.stringify(a) === JSON.stringify(b);
    case '!=': return JSON.stringify(a) !== JSON.stringify(b);
    case '<': return typeof a === typeof b && (a as number) < (b as number);
    case '<=': return typeof a === typeof b && (a as number) <= (b as number);
    case '>': return typeof a === typeof b && (a as number) > (b as number);
    case '>=': return typeof a === typeof b && (a as number) >= (b as number);
    case '~': return Array.isArray(a) ? a.some((x) => JSON.stringify(x) === JSON.stringify(b)) : typeof a === 'string' && a.includes(String(b));
  }
  return false;
}

export function query(doc: Json, path: string): Json[] {
  let cur: Json[] = [doc];
  for (const step of parsePath(path.trim().replace(/^\$/, ''))) {
    const next: Json[] = [];
    for (const v of cur) {
      if (step.kind === 'key') {
        if (v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, step.key)) next.push(v[step.key]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if (step.kind === 'wild') next.push(...children(v));
      else if (step.kind === 'filter') next.push(...(Array.isArray(v) ? v : [v]).filter((x) => test(get(x, step.key), step.op, step.value)));
      else {
        const stack: Json[] = [v];
        while (stack.length) {
          const x = stack.shift()!;
          if (x && typeof x === 'object' && !Array.isArray(x)) {
            if (step.key === '*') next.push(...Object.values(x));
            else if (Object.prototype.hasOwnProperty.call(x, step.key)) next.push(x[step.key]);
          }
          stack.push(...children(x));
        }
      }
    }
    cur = next;
  }
  return cur;
}

export default async function (_ctx: unknown, args: { json: unknown; path: string; aggregate?: string }) {
  let doc = args.json as Json;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      return { error: 'INVALID_JSON', message: (e as Error).message, results: [] };
    }
  }
  let results: Json[];
  try {
    results = query(doc, args.path ?? '');
  } catch (e) {
    return { error: 'INVALID_PATH', message: (e as Error).message, results: [] };
  }
  const nums = results.filter((x): x is number => typeof x === 'number');
  switch (args.aggregate ?? 'none') {
    case 'count': return { results, value: results.length };
    case 'sum': return { results, value: nums.reduce((a, b) => a + b, 0) };
    case 'min': return { results, value: nums.length ? Math.min(...nums) : null };
    case 'max': return { results, value: nums.length ? Math.max(...nums) : null };
    case 'distinct': return { results, value: [...new Map(results.map((r) => [JSON.stringify(r), r])).values()] };
    default: return { results };
  }
}
