// Two runs side by side: their traces folded into turns (trace-model.ts), turns aligned by
// number and the calls of each turn aligned by tool (longest common subsequence), then
// every pair marked with what differs. Arguments, results, errors and a missing call are
// differences of substance; timing and tokens are marked too, but only past a threshold
// (a run repeated never takes the same milliseconds) and they never make runs "differ".
// Pure (no React, no DOM): the compare page, the upgrade check and bench/trace share it.
import { TraceBuilder, type CallNode, type RunEvent, type TraceState, type TurnBlock, type Usage } from './trace-model';

export type CallField = 'missing' | 'tool' | 'args' | 'result' | 'error' | 'timing';
export type TurnField = 'missing' | 'text' | 'tokens';

export type FlatCall = Pick<CallNode, 'tool' | 'via' | 'args' | 'status' | 'result' | 'error' | 'durationMs'> & { depth: number };

export type CallRow = { kind: 'call'; key: string; turnNumber: number; a: FlatCall | null; b: FlatCall | null; marks: CallField[] };
export type TurnRow = {
  kind: 'turn';
  key: string;
  turnNumber: number;
  a: { text: string; usage?: Usage; calls: number } | null;
  b: { text: string; usage?: Usage; calls: number } | null;
  marks: TurnField[];
};
export type CompareRow = CallRow | TurnRow;

/** A run of consecutive rows that are the same on both sides, shown folded. */
export type FoldedRows = { kind: 'fold'; key: string; rows: CompareRow[] };

export type TraceComparison = {
  rows: CompareRow[];
  /** rows with a difference of substance (not timing or tokens alone) */
  differing: number;
  /** calls aligned, on either side */
  calls: number;
};

/** timing differs only when both more than this many ms apart and more than this factor */
export const TIMING_MIN_MS = 250;
export const TIMING_FACTOR = 2;

const SUBSTANTIVE = new Set<string>(['missing', 'tool', 'args', 'result', 'error', 'text']);
export const isSubstantive = (row: CompareRow) => row.marks.some((m) => SUBSTANTIVE.has(m));

/** Deep equality of JSON-like values (the stored trace is JSON). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && sameJson(ao[k], bo[k]));
}

export function foldTrace(events: Iterable<RunEvent>, status: TraceState['status'] = 'running'): TraceState {
  const builder = new TraceBuilder(status);
  for (const e of events) builder.apply(e);
  return builder.state;
}

function flatten(turn: TurnBlock): FlatCall[] {
  const out: FlatCall[] = [];
  const walk = (node: CallNode, depth: number) => {
    out.push({ tool: node.tool, via: node.via, args: node.args, status: node.status, result: node.result, error: node.error, durationMs: node.durationMs, depth });
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const item of turn.items) if (item.kind === 'call') walk(item, 0);
  return out;
}

const timingDiffers = (a?: number, b?: number) => {
  if (a === undefined || b === undefined) return false;
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  return hi - lo > TIMING_MIN_MS && hi > lo * TIMING_FACTOR;
};

function markCall(a: FlatCall | null, b: FlatCall | null): CallField[] {
  if (!a || !b) return ['missing'];
  const marks: CallField[] = [];
  if (a.tool !== b.tool) marks.push('tool');
  if (!sameJson(a.args, b.args)) marks.push('args');
  if (a.status !== b.status || !sameJson(a.error, b.error)) marks.push('error');
  if (!sameJson(a.result, b.result)) marks.push('result');
  if (timingDiffers(a.durationMs, b.durationMs)) marks.push('timing');
  return marks;
}

const sameUsage = (a?: Usage, b?: Usage) => sameJson(a ?? null, b ?? null);

/** Pairs two call lists by tool name, in order (LCS); long lists are paired by position. */
export function alignCalls<T extends { tool: string }>(a: T[], b: T[]): Array<[T | null, T | null]> {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return Array.from({ length: Math.max(n, m) }, (_, i) => [a[i] ?? null, b[i] ?? null]);
  // suffix LCS lengths, one row per call of `a`
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = a[i].tool === b[j].tool ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs: Array<[T | null, T | null]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i].tool === b[j].tool) pairs.push([a[i++], b[j++]]);
    else if (table[i + 1][j] >= table[i][j + 1]) pairs.push([a[i++], null]);
    else pairs.push([null, b[j++]]);
  }
  while (i < n) pairs.push([a[i++], null]);
  while (j < m) pairs.push([null, b[j++]]);
  return pairs;
}

const turnsOf = (t: TraceState) => new Map(t.blocks.filter((b): b is TurnBlock => b.kind === 'turn').map((b) => [b.turnNumber, b]));

export function compareTraces(a: TraceState, b: TraceState): TraceComparison {
  const ta = turnsOf(a);
  const tb = turnsOf(b);
  const numbers = [...new Set([...ta.keys(), ...tb.keys()])].sort((x, y) => x - y);
  const rows: CompareRow[] = [];
  let calls = 0;
  for (const n of numbers) {
    const x = ta.get(n) ?? null;
    const y = tb.get(n) ?? null;
    const turnMarks: TurnField[] = [];
    if (!x || !y) turnMarks.push('missing');
    else {
      if (x.text.trim() !== y.text.trim()) turnMarks.push('text');
      if (!sameUsage(x.usage, y.usage)) turnMarks.push('tokens');
    }
    const summary = (t: TurnBlock | null) => (t ? { text: t.text, usage: t.usage, calls: t.callCount } : null);
    rows.push({ kind: 'turn', key: `t${n}`, turnNumber: n, a: summary(x), b: summary(y), marks: turnMarks });
    const pairs = alignCalls(x ? flatten(x) : [], y ? flatten(y) : []);
    pairs.forEach(([ca, cb], i) => {
      calls++;
      rows.push({ kind: 'call', key: `t${n}c${i}`, turnNumber: n, a: ca, b: cb, marks: markCall(ca, cb) });
    });
  }
  return { rows, differing: rows.filter(isSubstantive).length, calls };
}

/** Rows for the view: stretches of `minRun` or more unmarked rows become one folded group. */
export function foldIdentical(rows: CompareRow[], minRun = 3): Array<CompareRow | FoldedRows> {
  const out: Array<CompareRow | FoldedRows> = [];
  let stretch: CompareRow[] = [];
  const flush = () => {
    if (stretch.length >= minRun) out.push({ kind: 'fold', key: `f${stretch[0].key}`, rows: stretch });
    else out.push(...stretch);
    stretch = [];
  };
  for (const row of rows) {
    if (row.marks.length === 0) stretch.push(row);
    else {
      flush();
      out.push(row);
    }
  }
  flush();
  return out;
}
