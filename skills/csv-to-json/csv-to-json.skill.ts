// Pure computation: runs in a sandbox without Node APIs. RFC 4180 CSV: quoted fields,
// doubled quotes, newlines inside quotes, CRLF or LF line ends.

export const frontmatter = {
  name: 'csv-to-json',
  description:
    'Convert CSV (or TSV) text into JSON rows with typed numbers and booleans, handling quoted fields and embedded newlines. Use before analysing tabular data pasted by the user.',
  metadata: {
    version: '1.0.0',
    tags: ['csv', 'json', 'data'],
    params: {
      type: 'object',
      properties: {
        csv: { type: 'string', description: 'The CSV text.' },
        delimiter: { type: 'string', minLength: 1, maxLength: 1, description: 'Field separator; detected from the header line when omitted (, ; tab |).' },
        header: { type: 'boolean', description: 'The first row holds column names (default true).' },
        infer_types: { type: 'boolean', description: 'Turn numbers, true/false and empty cells into JSON types (default true).' },
      },
      required: ['csv'],
    },
    returns: {
      type: 'object',
      properties: {
        columns: { type: 'array', items: { type: 'string' } },
        rows: { type: 'array' },
        rowCount: { type: 'integer' },
        warnings: { type: 'array', items: { type: 'string' } },
      },
      required: ['columns', 'rows', 'rowCount', 'warnings'],
    },
  },
};

function detect(firstLine: string): string {
  const counts = [',', ';', '\t', '|'].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ',';
}

export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

function infer(v: string): unknown {
  const t = v.trim();
  if (t === '') return null;
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(t) && Number.isFinite(Number(t))) return Number(t);
  return v;
}

export default async function (_ctx: unknown, args: { csv: string; delimiter?: string; header?: boolean; infer_types?: boolean }) {
  const text = String(args.csv ?? '').replace(/^\uFEFF/, '');
  const delimiter = args.delimiter ?? detect(text.split(/\r?\n/, 1)[0] ?? '');
  const table = parseCsv(text, delimiter);
  const warnings: string[] = [];
  const useHeader = args.header !== false;
  const width = Math.max(0, ...table.map((r) => r.length));
  const columns = useHeader && table.length ? table[0].map((h, i) => h.trim() || `column_${i + 1}`) : Array.from({ length: width }, (_, i) => `column_${i + 1}`);
  const seen = new Map<string, number>();
  for (let i = 0; i < columns.length; i++) {
    const n = seen.get(columns[i]) ?? 0;
    seen.set(columns[i], n + 1);
    if (n) {
      warnings.push(`duplicate column "${columns[i]}" renamed to "${columns[i]}_${n + 1}"`);
      columns[i] = `${columns[i]}_${n + 1}`;
    }
  }
  const body = useHeader ? table.slice(1) : table;
  const rows = body.map((r, idx) => {
    if (r.length !== columns.length) warnings.push(`row ${idx + 1} has ${r.length} fields, expected ${columns.length}`);
    const o: Record<string, unknown> = {};
    columns.forEach((c, i) => {
      const v = r[i] ?? '';
      o[c] = args.infer_types === false ? v : infer(v);
    });
    return o;
  });
  return { columns, rows, rowCount: rows.length, warnings: warnings.slice(0, 20) };
}
