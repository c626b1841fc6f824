// What a run's outcome is, from what the agent did: pure, so the worker (which stores
// the status) and the run page (which explains it) apply the same rules to the same
// events. A run only `succeeded` when it ended by choice with something to show for it;
// one that recovered from a failed call says how many failed (`failedCalls`), so no page
// shows a plain green over a red call.

export type OutcomeStatus = 'succeeded' | 'failed' | 'cancelled';

export type OutcomeRule = 'cancelled' | 'agent-error' | 'finished-empty' | 'finished' | 'last-turn-failed' | 'every-turn-failed' | 'final-answer';

/** One line per rule, in the order they are checked (shown on the run page). */
export const OUTCOME_RULES: ReadonlyArray<{ rule: OutcomeRule; status: OutcomeStatus; text: string }> = [
  { rule: 'cancelled', status: 'cancelled', text: 'Cancelled by its owner: cancelled.' },
  { rule: 'agent-error', status: 'failed', text: 'Stopped by an error (a limit, the model, the script running out): failed.' },
  { rule: 'finished-empty', status: 'failed', text: 'The code called ctx.finish with nothing (null) after a call failed: failed.' },
  { rule: 'finished', status: 'succeeded', text: 'The code called ctx.finish(value): succeeded (the page says how many calls failed on the way).' },
  { rule: 'every-turn-failed', status: 'failed', text: 'No ctx.finish and every turn that ran code failed: failed.' },
  { rule: 'last-turn-failed', status: 'failed', text: 'No ctx.finish and the last turn that ran code failed: failed.' },
  { rule: 'final-answer', status: 'succeeded', text: 'The model ended with a final answer and its last code ran: succeeded.' },
];

/** The fields of trace events this needs (AgentEvent and the stored run events both fit). */
export type OutcomeEvent = { type: string; turnNumber?: unknown; via?: unknown; finished?: unknown; error?: unknown; callId?: unknown; tool?: unknown };

/** The last failed call in words ("count-words: token/missing: Locked: …"), for a failed run's message. */
function lastFailure(events: OutcomeEvent[]): string | null {
  const e = events.findLast((x) => x.type === 'tool-error');
  if (!e) return null;
  const err = e.error && typeof e.error === 'object' ? (e.error as { code?: unknown; message?: unknown }) : {};
  const what = [
    typeof e.tool === 'string' && e.via === 'code' ? e.tool : null,
    typeof err.code === 'string' ? err.code : null,
    typeof err.message === 'string' ? err.message.slice(0, 500) : null,
  ];
  return what.filter(Boolean).join(': ') || null;
}

export type TurnTally = { turnNumber: number; codeRuns: number; codeErrors: number };

export type RunOutcome = {
  status: OutcomeStatus;
  rule: OutcomeRule;
  /** a sentence for people: why this status */
  reason: string;
  /** what the run stores as its error when it did not succeed */
  error: { code: string; message: string } | null;
  /** calls that failed on the way (failedCalls below) */
  failedCalls: number;
};

/**
 * Failed calls of a run: every failed tool call made from code, plus every failed code
 * run (a model call) none of whose tool calls failed, so one failure counts once.
 */
export function failedCalls(events: Iterable<OutcomeEvent>): number {
  let n = 0;
  const withFailedTool = new Set<unknown>();
  for (const e of events) {
    if (e.type !== 'tool-error') continue;
    if (e.via === 'code') {
      n++;
      withFailedTool.add(e.callId);
    } else if (!withFailedTool.has(e.callId)) n++;
  }
  return n;
}

/** Per turn: how many times the model ran code (invoke calls) and how many of those failed. */
export function tallyTurns(events: Iterable<OutcomeEvent>): TurnTally[] {
  const turns = new Map<number, TurnTally>();
  for (const e of events) {
    if (typeof e.turnNumber !== 'number') continue;
    let t = turns.get(e.turnNumber);
    if (!t) {
      t = { turnNumber: e.turnNumber, codeRuns: 0, codeErrors: 0 };
      turns.set(e.turnNumber, t);
    }
    // the model's own calls (its code runs); calls made from inside that code are not counted:
    // code that catches a failed tool call and goes on has not failed
    if (e.via !== 'model') continue;
    if (e.type === 'tool-result') t.codeRuns++;
    else if (e.type === 'tool-error') {
      t.codeRuns++;
      t.codeErrors++;
    }
  }
  return [...turns.values()].sort((a, b) => a.turnNumber - b.turnNumber);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export type OutcomeInput = {
  /** how the agent loop ended */
  agentStatus: 'completed' | 'failed' | 'cancelled';
  /** whether agent code called ctx.finish */
  finished: boolean;
  /** the value it finished with */
  result?: unknown;
  error?: { code: string; message: string } | null;
  events: Iterable<OutcomeEvent>;
};

export function decideRunOutcome(input: OutcomeInput): RunOutcome {
  const events = [...input.events];
  const failed = failedCalls(events);
  const rule = (r: OutcomeRule, reason: string, error: RunOutcome['error'] = null): RunOutcome => ({
    status: OUTCOME_RULES.find((x) => x.rule === r)!.status,
    rule: r,
    reason,
    error,
    failedCalls: failed,
  });
  const onTheWay = failed > 0 ? ` ${plural(failed, 'call')} failed on the way.` : '';
  const last = lastFailure(events);
  const because = last ? ` (${last})` : '';
  if (input.agentStatus === 'cancelled') return rule('cancelled', 'The run was cancelled.', input.error ?? null);
  if (input.agentStatus === 'failed') {
    const error = input.error ?? { code: 'run/failed', message: 'the run stopped with an error' };
    return rule('agent-error', `The run stopped with an error: ${error.code}.`, error);
  }
  if (input.finished && failed > 0 && (input.result === null || input.result === undefined)) {
    const message = `the run called ctx.finish with nothing (null) after ${plural(failed, 'failed call')}${because}`;
    return rule('finished-empty', `Failed: ${message}.`, { code: 'run/finished-empty', message });
  }
  if (input.finished) return rule('finished', `The agent called ctx.finish with its result.${onTheWay}`);
  const ran = tallyTurns(events).filter((t) => t.codeRuns > 0);
  const lastRan = ran.at(-1);
  if (ran.length > 0 && ran.every((t) => t.codeErrors > 0)) {
    const message = `every turn that ran code failed (${plural(ran.length, 'turn')}), and the run never called ctx.finish${because}`;
    return rule('every-turn-failed', `Failed: ${message}.`, { code: 'run/every-turn-failed', message });
  }
  if (lastRan && lastRan.codeErrors > 0) {
    const message = `the code of turn ${lastRan.turnNumber} failed and the run ended without calling ctx.finish${because}`;
    return rule('last-turn-failed', `Failed: ${message}.`, { code: 'run/last-turn-failed', message });
  }
  return rule('final-answer', `The model ended with a final answer (no ctx.finish) after its last code ran without errors.${onTheWay}`);
}
