// Red-team finding: one anonymous run of 190 parallel 250 KB tool results stored a 47 MB
// trace, and reading it back stalled the server. A run's stored trace has a byte budget:
// past it, every event is still stored at its seq (no gap), with each large field replaced
// by "[truncated: N bytes]"; the budget counts what the run stored before the log opened.
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { listRunEvents } from './list-run-events';
import { openRunEventLog } from './run-event-log';
import { newRunId } from './run-id';

afterAll(() => {
  delete process.env.SKILLYARD_RUN_TRACE_MAX_BYTES;
});

const result = (i: number) => ({ turnNumber: 1, callId: `c${i}`, tool: 'count-words', result: 'a '.repeat(2000), via: 'code' });

describe('the trace byte budget', () => {
  it('stores every event at its seq, truncating large fields once the run passes its budget, also after reopening', async () => {
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running' } });
    const log = await openRunEventLog(testDb(), run.id, { traceMaxBytes: 10_000 });
    for (let i = 1; i <= 4; i++) log.append('tool-result', result(i));
    log.append('tool-call', { callId: 'c5', tool: 'count-words', args: { text: 'short' } });
    await log.flush();
    // another turn, another log: what is stored already counts
    const again = await openRunEventLog(testDb(), run.id, { traceMaxBytes: 10_000 });
    again.append('tool-result', result(6));
    again.append('run-end', { status: 'failed', error: { code: 'agent/failed', message: 'x'.repeat(400) } });
    await again.flush();

    const events = await listRunEvents(testDb(), run.id, 0);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.slice(0, 2).map((e) => e.data.result)).toEqual(['a '.repeat(2000), 'a '.repeat(2000)]);
    for (const e of [events[2], events[3], events[5]]) {
      expect(e.data).toEqual({ turnNumber: 1, callId: e.data.callId, tool: 'count-words', result: '[truncated: 4002 bytes]', via: 'code' });
    }
    expect(events[4].data).toEqual({ callId: 'c5', tool: 'count-words', args: { text: 'short' } });
    // the outcome is never cut
    expect(events[6]).toMatchObject({ type: 'run-end', data: { status: 'failed', error: { code: 'agent/failed', message: 'x'.repeat(400) } } });
    expect(log.failure()).toBeNull();
  });

  it('reads the budget from SKILLYARD_RUN_TRACE_MAX_BYTES', async () => {
    process.env.SKILLYARD_RUN_TRACE_MAX_BYTES = '1000';
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running' } });
    const log = await openRunEventLog(testDb(), run.id);
    log.append('tool-result', result(1));
    await log.flush();
    expect((await listRunEvents(testDb(), run.id, 0))[0].data.result).toBe('[truncated: 4002 bytes]');
  });
});
