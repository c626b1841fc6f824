// Two runs the viewer may see, compared: their traces turn by turn and call by call
// (lib/trace/compare-traces.ts), the versions each was pinned to, and their outcomes.
// Each run is read with the viewer's own access (get-run.ts): a run they may not see is
// "no such run", exactly as its own link would say.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { compareTraces, isSubstantive, sameJson, TraceBuilder, type TraceComparison, type TraceState } from '../trace';
import { getRun, type RunAccess, type RunView } from './get-run';
import { listRunEvents } from './list-run-events';

/** events read per run at most; a longer run is compared over its first this many */
export const MAX_COMPARED_EVENTS = 20_000;

export type VersionChange = {
  ref: string;
  a: string | null;
  b: string | null;
  /** tools whose schema digest differs between the two versions (or exists on one side only) */
  tools: string[];
};

export type RunComparison = {
  a: RunView;
  b: RunView;
  trace: TraceComparison;
  versions: VersionChange[];
  settings: Array<{ what: string; a: string; b: string }>;
  outcome: { status: boolean; result: boolean; error: boolean };
  /** whether anything of substance differs: a call, a message or the outcome (versions and settings are listed, not counted) */
  differs: boolean;
  /** the runs whose trace was longer than MAX_COMPARED_EVENTS (compared over their start) */
  truncated: Array<'a' | 'b'>;
  /** traces removed by retention: only the summaries could be compared */
  traceRemoved: Array<'a' | 'b'>;
};

/** events read from the database at a time */
const PAGE_EVENTS = 2000;

/**
 * A run's trace folded page by page as it is read: only the folded trace is held, never
 * the list of up to MAX_COMPARED_EVENTS raw events beside it.
 */
async function readTrace(db: Db, runId: string): Promise<{ trace: TraceState; truncated: boolean }> {
  const builder = new TraceBuilder('running');
  let read = 0;
  let after = 0;
  while (read < MAX_COMPARED_EVENTS) {
    const take = Math.min(PAGE_EVENTS, MAX_COMPARED_EVENTS - read);
    const page = await listRunEvents(db, runId, after, take);
    for (const e of page) builder.apply({ ...e.data, seq: e.seq, type: e.type, createdAt: e.createdAt });
    read += page.length;
    if (page.length > 0) after = page[page.length - 1].seq;
    if (page.length < take) break; // the last page: nothing more to ask for
  }
  const truncated = read >= MAX_COMPARED_EVENTS && (await listRunEvents(db, runId, after, 1)).length > 0;
  return { trace: builder.state, truncated };
}

function versionChanges(a: RunView, b: RunView): VersionChange[] {
  const pa = new Map((a.pins?.skills ?? []).map((s) => [s.ref, s]));
  const pb = new Map((b.pins?.skills ?? []).map((s) => [s.ref, s]));
  const refs = [...new Set([...pa.keys(), ...pb.keys()])];
  const out: VersionChange[] = [];
  for (const ref of refs) {
    const x = pa.get(ref);
    const y = pb.get(ref);
    const dx = new Map((x?.tools ?? []).map((t) => [t.name, t.schemaDigest]));
    const dy = new Map((y?.tools ?? []).map((t) => [t.name, t.schemaDigest]));
    const tools = [...new Set([...dx.keys(), ...dy.keys()])].filter((t) => dx.get(t) !== dy.get(t));
    if (x?.versionId !== y?.versionId || tools.length) out.push({ ref, a: x?.version ?? null, b: y?.version ?? null, tools });
  }
  return out;
}

function settingChanges(a: RunView, b: RunView) {
  const show = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
  const pairs: Array<[string, unknown, unknown]> = [
    ['provider', a.config.provider, b.config.provider],
    ['model', a.pins?.model ?? a.config.model, b.pins?.model ?? b.config.model],
    ['allowed tools', a.config.allowedTools, b.config.allowedTools],
    ['turn limit', a.config.maxTurns, b.config.maxTurns],
    ['step limit', a.config.maxSteps, b.config.maxSteps],
    ['task', a.config.task, b.config.task],
  ];
  return pairs.filter(([, x, y]) => show(x) !== show(y)).map(([what, x, y]) => ({ what, a: show(x), b: show(y) }));
}

/** Compares runs `aId` and `bId`, each read with the access `accessFor` gives for it. */
export async function compareRuns(db: Db, aId: string, bId: string, accessFor: (runId: string) => RunAccess): Promise<RunComparison> {
  if (aId === bId) throw new AppError('run/compare-same', 'Choose two different runs to compare.');
  const [a, b] = await Promise.all([getRun(db, aId, accessFor(aId)), getRun(db, bId, accessFor(bId))]);
  const [ea, eb] = await Promise.all([readTrace(db, a.id), readTrace(db, b.id)]);
  const trace = compareTraces(ea.trace, eb.trace);
  const versions = versionChanges(a, b);
  const settings = settingChanges(a, b);
  const outcome = { status: a.status !== b.status, result: !sameJson(a.result ?? null, b.result ?? null), error: !sameJson(a.error ?? null, b.error ?? null) };
  return {
    a,
    b,
    trace,
    versions,
    settings,
    outcome,
    differs: trace.rows.some(isSubstantive) || outcome.status || outcome.result || outcome.error,
    truncated: [...(ea.truncated ? ['a' as const] : []), ...(eb.truncated ? ['b' as const] : [])],
    traceRemoved: [...(a.traceRemovedAt ? ['a' as const] : []), ...(b.traceRemovedAt ? ['b' as const] : [])],
  };
}
