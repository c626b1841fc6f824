import { describe, expect, it } from 'vitest';
import { TraceBuilder, type RunEvent, type TurnBlock } from './trace-model';

function feed(events: Array<Omit<RunEvent, 'seq' | 'createdAt'> & { createdAt?: string }>, status: 'running' | 'queued' = 'running') {
  const b = new TraceBuilder(status);
  events.forEach((e, i) => b.apply({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), ...e, seq: i + 1 } as RunEvent));
  return b.snapshot();
}

const turns = (s: ReturnType<typeof feed>) => s.blocks.filter((b): b is TurnBlock => b.kind === 'turn');

describe('TraceBuilder', () => {
  it('nests code calls under their invoke and counts calls and errors per turn and per tool', () => {
    const s = feed([
      { type: 'turn-start', turnNumber: 1 },
      { type: 'tool-call', turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', args: { code: 'x' } },
      { type: 'tool-call', turnNumber: 1, callId: 'c1', tool: 'slugify', via: 'code', args: {} },
      { type: 'tool-error', turnNumber: 1, callId: 'c1', tool: 'slugify', via: 'code', error: { code: 'tool/x', message: 'no' }, durationMs: 3 },
      { type: 'tool-result', turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', result: { value: 1 }, durationMs: 5 },
      { type: 'turn-end', turnNumber: 1, toolCalls: 1, finished: false, usage: { inputTokens: 10, outputTokens: 4, costUsd: 0.001 } },
    ]);
    const [t] = turns(s);
    expect(t.items).toHaveLength(1);
    expect(t.items[0].kind === 'call' && t.items[0].children.map((c) => [c.tool, c.status])).toEqual([['slugify', 'error']]);
    expect([t.callCount, t.errorCount]).toEqual([2, 1]);
    expect(s.tools).toEqual({ invoke: 1, slugify: 1 });
    expect(s.errorCount).toBe(1);
    expect(t.usage).toEqual({ inputTokens: 10, outputTokens: 4, costUsd: 0.001 });
    expect(s.usage).toEqual({ inputTokens: 10, outputTokens: 4, costUsd: 0.001 });
  });

  it('closes a turn left open by a cancelled run and never calls the unwritten turn written', () => {
    const s = feed([
      { type: 'turn-start', turnNumber: 1 },
      { type: 'awaiting-input', turnNumber: 1 },
      { type: 'agent-error', error: { code: 'agent/cancelled', message: 'run cancelled' }, turns: 1, steps: 0 },
      { type: 'run-end', status: 'cancelled' },
    ]);
    const [t] = turns(s);
    expect(s.status).toBe('cancelled');
    expect(t.interrupted).toBe('cancelled');
    const wait = t.items.find((i) => i.kind === 'note' && i.event.type === 'awaiting-input');
    expect(wait).toMatchObject({ abandoned: true });
    expect(wait && 'resolved' in wait ? wait.resolved : undefined).toBeUndefined();
    expect(s.awaitingTurn).toBeNull();
  });

  it('marks the wait resolved when the awaited turn arrives, and not before', () => {
    const events = [
      { type: 'turn-start', turnNumber: 1 },
      { type: 'awaiting-input', turnNumber: 1 },
      { type: 'object', component: { type: 'text' } },
      { type: 'tool-call', turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', args: { code: '1' } },
    ];
    const early = feed(events.slice(0, 3));
    expect(early.awaitingTurn).toBe(1);
    const late = feed(events);
    expect(late.awaitingTurn).toBeNull();
    expect(turns(late)[0].items.find((i) => i.kind === 'note' && i.event.type === 'awaiting-input')).toMatchObject({ resolved: true });
  });

  it('settles calls still pending when a run fails, and keeps the outcome reason', () => {
    const s = feed([
      { type: 'turn-start', turnNumber: 1 },
      { type: 'tool-call', turnNumber: 1, callId: 'c1', tool: 'invoke', via: 'model', args: { code: 'x' } },
      { type: 'run-end', status: 'failed', rule: 'agent-error', reason: 'The run stopped with an error: run/stale.' },
    ]);
    const [t] = turns(s);
    expect(t.interrupted).toBe('failed');
    expect(t.items[0]).toMatchObject({ status: 'error', error: { code: 'run/ended' } });
    expect(s.outcome).toEqual({ rule: 'agent-error', reason: 'The run stopped with an error: run/stale.' });
  });

  it('counts duplicates and gaps instead of applying them', () => {
    const b = new TraceBuilder('running');
    const at = '2026-01-01T00:00:00.000Z';
    expect(b.apply({ seq: 1, type: 'turn-start', turnNumber: 1, createdAt: at })).toBe(true);
    expect(b.apply({ seq: 1, type: 'turn-start', turnNumber: 1, createdAt: at })).toBe(false);
    b.apply({ seq: 3, type: 'turn-end', turnNumber: 1, createdAt: at });
    expect(b.state).toMatchObject({ count: 2, duplicates: 1, gaps: 1, lastSeq: 3 });
  });
});
