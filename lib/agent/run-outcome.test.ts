import { describe, expect, it } from 'vitest';
import { decideRunOutcome, OUTCOME_RULES, tallyTurns, type OutcomeEvent } from './run-outcome';

const code = (turnNumber: number, ok: boolean): OutcomeEvent => ({ type: ok ? 'tool-result' : 'tool-error', turnNumber, via: 'model' });
const inner = (turnNumber: number, ok: boolean): OutcomeEvent => ({ type: ok ? 'tool-result' : 'tool-error', turnNumber, via: 'code' });
const textTurn = (turnNumber: number): OutcomeEvent[] => [
  { type: 'turn-start', turnNumber },
  { type: 'turn-end', turnNumber },
];

describe('decideRunOutcome', () => {
  it('calls a run whose every turn failed, and that never finished, failed', () => {
    const out = decideRunOutcome({ agentStatus: 'completed', finished: false, events: [code(1, false), code(2, false), ...textTurn(3)] });
    expect(out.status).toBe('failed');
    expect(out.rule).toBe('every-turn-failed');
    expect(out.error?.code).toBe('run/every-turn-failed');
    expect(out.reason).toContain('2 turns');
  });

  it('calls a run whose last code failed without a finish failed, even after good turns', () => {
    const out = decideRunOutcome({ agentStatus: 'completed', finished: false, events: [code(1, true), code(2, false)] });
    expect(out).toMatchObject({ status: 'failed', rule: 'last-turn-failed' });
    expect(out.reason).toContain('turn 2');
  });

  it('lets ctx.finish win over earlier failed turns', () => {
    const out = decideRunOutcome({ agentStatus: 'completed', finished: true, result: 'done', events: [code(1, false), code(2, true)] });
    expect(out).toMatchObject({ status: 'succeeded', rule: 'finished', error: null, failedCalls: 1 });
  });

  it('calls ctx.finish(null) after a failed call failed, not succeeded', () => {
    const failedTool: OutcomeEvent[] = [
      { type: 'tool-error', turnNumber: 1, via: 'code', callId: 'c1' },
      { type: 'tool-error', turnNumber: 1, via: 'model', callId: 'c1' },
    ];
    const out = decideRunOutcome({ agentStatus: 'completed', finished: true, result: null, events: [...failedTool, code(2, true)] });
    expect(out).toMatchObject({ status: 'failed', rule: 'finished-empty', error: { code: 'run/finished-empty' }, failedCalls: 1 });
    // with no failed call, finishing with null is the agent's choice
    expect(decideRunOutcome({ agentStatus: 'completed', finished: true, result: null, events: [code(1, true)] }).status).toBe('succeeded');
  });

  it('says how many calls failed when a run recovered and succeeded', () => {
    const events: OutcomeEvent[] = [
      { type: 'tool-error', turnNumber: 1, via: 'code', callId: 'c1' },
      { type: 'tool-error', turnNumber: 1, via: 'model', callId: 'c1' },
      { type: 'tool-error', turnNumber: 2, via: 'model', callId: 'c2' },
      code(3, true),
    ];
    const out = decideRunOutcome({ agentStatus: 'completed', finished: true, result: { ok: 1 }, events });
    expect(out).toMatchObject({ status: 'succeeded', rule: 'finished', failedCalls: 2 });
    expect(out.reason).toContain('2 calls failed on the way');
    expect(decideRunOutcome({ agentStatus: 'completed', finished: true, result: 1, events: [code(1, true)] }).failedCalls).toBe(0);
  });

  it('accepts a final answer after code that ran, and a text-only run', () => {
    expect(decideRunOutcome({ agentStatus: 'completed', finished: false, events: [code(1, false), code(2, true), ...textTurn(3)] }).status).toBe('succeeded');
    expect(decideRunOutcome({ agentStatus: 'completed', finished: false, events: textTurn(1) }).rule).toBe('final-answer');
  });

  it('does not count a failed tool call that the code caught', () => {
    const out = decideRunOutcome({ agentStatus: 'completed', finished: false, events: [inner(1, false), code(1, true)] });
    expect(out.status).toBe('succeeded');
    // ...but still says it failed
    expect(out.failedCalls).toBe(1);
  });

  it('keeps cancelled and agent errors as they are', () => {
    expect(decideRunOutcome({ agentStatus: 'cancelled', finished: false, events: [] }).status).toBe('cancelled');
    const failed = decideRunOutcome({ agentStatus: 'failed', finished: false, error: { code: 'agent/max-steps', message: 'x' }, events: [code(1, true)] });
    expect(failed).toMatchObject({ status: 'failed', rule: 'agent-error', error: { code: 'agent/max-steps' } });
  });

  it('lists every rule once, with the status it gives', () => {
    expect(new Set(OUTCOME_RULES.map((r) => r.rule)).size).toBe(OUTCOME_RULES.length);
    expect(OUTCOME_RULES.filter((r) => r.status === 'succeeded').map((r) => r.rule)).toEqual(['finished', 'final-answer']);
  });
});

describe('tallyTurns', () => {
  it('counts the model’s code runs and their failures per turn, in turn order', () => {
    expect(tallyTurns([code(2, false), code(1, true), inner(1, false), { type: 'message', turnNumber: 3 }])).toEqual([
      { turnNumber: 1, codeRuns: 1, codeErrors: 0 },
      { turnNumber: 2, codeRuns: 1, codeErrors: 1 },
      { turnNumber: 3, codeRuns: 0, codeErrors: 0 },
    ]);
  });
});
