import { describe, expect, it } from 'vitest';
import { alignCalls, compareTraces, foldIdentical, foldTrace, isSubstantive } from './compare-traces';
import type { RunEvent } from './trace-model';

/** a scripted run's events: one turn whose code calls `slugify` once per input */
function run(inputs: Array<{ text: unknown; result?: unknown; error?: string; ms?: number }>, text = 'turn one'): RunEvent[] {
  let seq = 0;
  const e = (type: string, data: Record<string, unknown>): RunEvent => ({ seq: ++seq, type, createdAt: '2026-11-28T00:00:00.000Z', ...data });
  const events = [e('agent-start', {}), e('turn-start', { turnNumber: 1 }), e('agent-message', { turnNumber: 1, text })];
  events.push(e('tool-call', { turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', args: { code: '…' } }));
  for (const i of inputs) {
    events.push(e('tool-call', { turnNumber: 1, callId: 'c1', tool: 'slugify', via: 'code', args: { text: i.text } }));
    events.push(
      i.error
        ? e('tool-error', { turnNumber: 1, callId: 'c1', tool: 'slugify', via: 'code', error: { code: 'tool/failed', message: i.error }, durationMs: i.ms ?? 3 })
        : e('tool-result', { turnNumber: 1, callId: 'c1', tool: 'slugify', via: 'code', result: i.result, durationMs: i.ms ?? 3 }),
    );
  }
  events.push(e('tool-result', { turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', result: inputs.length, durationMs: 10 }));
  events.push(e('turn-end', { turnNumber: 1, toolCalls: 1 }));
  events.push(e('run-end', { status: 'succeeded' }));
  return events;
}

const inputs = Array.from({ length: 8 }, (_, i) => ({ text: `T ${i}`, result: { slug: `t-${i}` } }));

describe('compareTraces', () => {
  it('marks nothing for two identical runs, whatever their times', () => {
    const c = compareTraces(foldTrace(run(inputs)), foldTrace(run(inputs.map((i) => ({ ...i, ms: 5 })))));
    expect(c.differing).toBe(0);
    expect(c.rows.every((r) => r.marks.length === 0)).toBe(true);
    expect(foldIdentical(c.rows)).toHaveLength(1);
  });

  it('marks exactly the one call whose result differs', () => {
    const changed = inputs.map((i, n) => (n === 5 ? { ...i, result: { slug: 'T-5' } } : i));
    const c = compareTraces(foldTrace(run(inputs)), foldTrace(run(changed)));
    const marked = c.rows.filter(isSubstantive);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ kind: 'call', marks: ['result'], a: { args: { text: 'T 5' } }, b: { result: { slug: 'T-5' } } });
    // the identical stretches around it fold: turn + invoke + 5 calls, the call, then 2 calls (too short to fold)
    expect(foldIdentical(c.rows).map((r) => r.kind)).toEqual(['fold', 'call', 'call', 'call']);
  });

  it('marks arguments, errors and timing past the threshold', () => {
    const other = inputs.map((i, n) => (n === 1 ? { ...i, text: 'other' } : n === 2 ? { text: i.text, error: 'boom' } : n === 3 ? { ...i, ms: 2000 } : i));
    const c = compareTraces(foldTrace(run(inputs)), foldTrace(run(other)));
    const marks = c.rows.filter((r) => r.kind === 'call' && r.marks.length).map((r) => r.marks);
    expect(marks).toEqual([['args'], ['error', 'result'], ['timing']]);
    // timing alone is not a difference of substance
    expect(c.differing).toBe(2);
  });

  it('aligns a missing call instead of shifting every later one', () => {
    const fewer = inputs.filter((_, n) => n !== 0);
    const pairs = alignCalls(
      inputs.map((i) => ({ tool: String(i.text) })),
      fewer.map((i) => ({ tool: String(i.text) })),
    );
    expect(pairs[0]).toEqual([{ tool: 'T 0' }, null]);
    expect(pairs.slice(1).every(([a, b]) => a?.tool === b?.tool)).toBe(true);
  });

  it('marks a differing message and a turn only one run has', () => {
    const c = compareTraces(foldTrace(run(inputs, 'hello')), foldTrace(run(inputs, 'bye')));
    expect(c.rows[0]).toMatchObject({ kind: 'turn', marks: ['text'] });
  });
});
