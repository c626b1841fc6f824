// What a run's outcome is, from what the agent did: pure, so the worker (which stores
// the status) and the run page (which explains it) apply the same rules to the same
// events. A run only `succeeded` when it ended by choice with something to show for it.

export type OutcomeStatus = 'succeeded' | 'failed' | 'cancelled';

export type OutcomeRule =
  | 'cancelled'
  | 'agent-error'
  | 'finished'
  | 'last-turn-failed'
  | 'every-turn-failed'
  | 'final-answer';

/** One line per rule, in the order they are checked (shown on the run page). */
export const OUTCOME_RULES: ReadonlyArray<{ rule: OutcomeRule; status: OutcomeStatus; text: string }> = [
  { rule: 'cancelled', status: 'cancelled', text: 'Cancelled by its owner: cancelled.' },
  { rule: 'agent-error', status: 'failed', text: 'Stopped by an error (a limit, the model, the script running out): failed.' },
  { rule: 'finished', status: 'succeeded', text: 'The code called ctx.finish(value): succeeded.' },
  { rule: 'every-turn-failed', status: 'failed', text: 'No ctx.finish and every turn that ran code failed: failed.' },
  { rule: 'last-turn-failed', status: 'failed', text: 'No ctx.finish and the last turn that ran code failed: failed.' },
  { rule: 'final-answer', status: 'succeeded', text: 'The model ended with a final answer and its last code ran: succeeded.' },
];

/** The fields of trace events this needs (AgentEvent and the stored run events both fit). */
export type OutcomeEvent = { type: string; turnNumber?: unknown; via?: unknown; finished?: unknown; error?: unknown };

export type TurnTally = { turnNumber: number; codeRuns: number; codeErrors: number };

export type RunOutcome = {
  status: OutcomeStatus;
  rule: OutcomeRule;
  /** a sentence for people: why this status */
  reason: string;
  /** what the run stores as its error when it did not succeed */
  error: { code: string; message: string } | null;
};

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
  error?: { code: string; message: string } | null;
  events: Iterable<OutcomeEvent>;
};

export function decideRunOutcome(input: OutcomeInput): RunOutcome {
  const rule = (r: OutcomeRule, reason: string, error: RunOutcome['error'] = null): RunOutcome => ({
    status: OUTCOME_RULES.find((x) => x.rule === r)!.status,
    rule: r,
    reason,
    error,
  });
  if (input.agentStatus === 'cancelled') return rule('cancelled', 'The run was cancelled.', input.error ?? null);
  if (input.agentStatus === 'failed') {
    const error = input.error ?? { code: 'run/failed', message: 'the run stopped with an error' };
    return rule('agent-error', `The run stopped with an error: ${error.code}.`, error);
  }
  if (input.finished) return rule('finished', 'The agent called ctx.finish with its result.');
  const ran = tallyTurns(input.events).filter((t) => t.codeRuns > 0);
  const last = ran.at(-1);
  if (ran.length > 0 && ran.every((t) => t.codeErrors > 0)) {
    const message = `every turn that ran code failed (${plural(ran.length, 'turn')}), and the run never called ctx.finish`;
    return rule('every-turn-failed', `Failed: ${message}.`, { code: 'run/every-turn-failed', message });
  }
  if (last && last.codeErrors > 0) {
    const message = `the code of turn ${last.turnNumber} failed and the run ended without calling ctx.finish`;
    return rule('last-turn-failed', `Failed: ${message}.`, { code: 'run/last-turn-failed', message });
  }
  return rule('final-answer', 'The model ended with a final answer (no ctx.finish) after its code ran without errors.');
}
