// Folds a run's event stream into timeline blocks, one event at a time. Blocks are
// mutated in place and carry a `rev` that goes up on every change, so the view can
// re-render only what an event touched (memo by rev) instead of re-deriving the trace.
// Pure (no React, no DOM): the run page, its tests and bench/trace share it.

export type RunEvent = { seq: number; type: string; createdAt: string; [field: string]: unknown };
export type TraceError = { code: string; message: string };

export type CallNode = {
  kind: 'call';
  key: string;
  rev: number;
  seqs: number[];
  callId: string;
  tool: string;
  via: 'model' | 'code';
  args: unknown;
  denied?: string;
  status: 'pending' | 'ok' | 'error';
  result?: unknown;
  error?: TraceError;
  durationMs?: number;
  logs?: string[];
  /** tool calls made by this invoke's code */
  children: CallNode[];
};

export type TurnBlock = {
  kind: 'turn';
  key: string;
  rev: number;
  seqs: number[];
  turnNumber: number;
  startedAt: string;
  endedAt?: string;
  text: string;
  reasoning: string;
  /** model tool calls (with their code's calls nested) and notes, in order */
  items: Array<CallNode | NoteBlock>;
  end?: { toolCalls: number; finished: boolean; directive: unknown };
  /** every tool call of the turn, nested ones included, and how many of them failed */
  callCount: number;
  errorCount: number;
  /** calls of the turn by tool name (nested calls included) */
  tools: Record<string, number>;
  /** tokens (and cost) of the turn's model request, when the provider reports them */
  usage?: Usage;
  /** the run ended (failed or cancelled) while this turn was still open */
  interrupted?: 'failed' | 'cancelled';
};

export type Usage = { inputTokens: number; outputTokens: number; costUsd?: number };

/** An event shown on its own: start, errors, retries, objects, awaiting input, the end. */
export type NoteBlock = {
  kind: 'note';
  key: string;
  rev: number;
  seqs: number[];
  event: RunEvent;
  /** an awaiting-input note whose turn then arrived */
  resolved?: boolean;
  /** an awaiting-input note whose run ended before anyone wrote the turn */
  abandoned?: boolean;
};

export type Block = TurnBlock | NoteBlock;

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export type TraceState = {
  blocks: Block[];
  lastSeq: number;
  count: number;
  duplicates: number;
  gaps: number;
  status: RunStatus;
  /** the turn a manual run waits for, until something of that turn arrives */
  awaitingTurn: number | null;
  startedAt: string | null;
  endedAt: string | null;
  /** tool calls by tool name (nested calls included), for the tool filter */
  tools: Record<string, number>;
  callCount: number;
  errorCount: number;
  /** failed calls, each failure once (lib/agent/run-outcome.ts failedCalls); a succeeded run says so beside its status */
  failedCalls: number;
  /** summed over the turns that report usage; null when none does */
  usage: Usage | null;
  /** why the run ended as it did, from its run-end event */
  outcome: { rule: string | null; reason: string | null } | null;
};

export function emptyTrace(status: RunStatus): TraceState {
  return {
    blocks: [],
    lastSeq: 0,
    count: 0,
    duplicates: 0,
    gaps: 0,
    status,
    awaitingTurn: null,
    startedAt: null,
    endedAt: null,
    tools: {},
    callCount: 0,
    errorCount: 0,
    failedCalls: 0,
    usage: null,
    outcome: null,
  };
}

const TERMINAL: RunStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (s: RunStatus) => TERMINAL.includes(s);

const asText = (v: unknown) => (typeof v === 'string' ? v : '');
const asNumber = (v: unknown) => (typeof v === 'number' ? v : undefined);
const asUsage = (v: unknown): Usage | undefined => {
  if (!v || typeof v !== 'object') return undefined;
  const u = v as Record<string, unknown>;
  const inputTokens = asNumber(u.inputTokens);
  const outputTokens = asNumber(u.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const costUsd = asNumber(u.costUsd);
  return { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0, ...(costUsd !== undefined ? { costUsd } : {}) };
};
const asError = (v: unknown): TraceError =>
  v && typeof v === 'object' ? { code: asText((v as TraceError).code) || 'error', message: asText((v as TraceError).message) } : { code: 'error', message: String(v) };

/** The mutable index behind a TraceState: where each turn and call lives. */
export class TraceBuilder {
  state: TraceState;
  private turns = new Map<number, TurnBlock>();
  private invokes = new Map<string, CallNode>();
  private pendingCode = new Map<string, CallNode[]>();
  /** callIds of code runs that had a failed tool call (failedCalls counts that failure once) */
  private failedToolIn = new Set<string>();
  private openTurn: TurnBlock | null = null;
  private waiting: { note: NoteBlock | undefined; turn: TurnBlock | undefined } | null = null;

  constructor(status: RunStatus) {
    this.state = emptyTrace(status);
  }

  private note(event: RunEvent) {
    this.state.blocks.push({ kind: 'note', key: `n${event.seq}`, rev: 0, seqs: [event.seq], event });
  }

  private turn(event: RunEvent): TurnBlock {
    const n = asNumber(event.turnNumber) ?? 0;
    let turn = this.turns.get(n);
    if (!turn) {
      turn = {
        kind: 'turn',
        key: `t${n}`,
        rev: 0,
        seqs: [],
        turnNumber: n,
        startedAt: event.createdAt,
        text: '',
        reasoning: '',
        items: [],
        callCount: 0,
        errorCount: 0,
        tools: {},
      };
      this.turns.set(n, turn);
      this.state.blocks.push(turn);
      this.openTurn = turn;
    }
    turn.rev++;
    return turn;
  }

  /** Applies one event; returns false for a duplicate (already seen seq). */
  apply(event: RunEvent): boolean {
    const s = this.state;
    if (event.seq <= s.lastSeq) {
      s.duplicates++;
      return false;
    }
    if (event.seq !== s.lastSeq + 1) s.gaps++;
    s.lastSeq = event.seq;
    s.count++;
    if (s.status === 'queued') s.status = 'running';
    s.startedAt ??= event.createdAt;
    if (s.awaitingTurn !== null && event.type !== 'awaiting-input') {
      // the wait is over when something of that turn arrives (the person wrote it); a run
      // that ends meanwhile was not written by anyone
      const ofTurn = event.turnNumber === s.awaitingTurn;
      const ended = event.type === 'run-end' || event.type === 'agent-error' || event.type === 'agent-complete';
      if (ofTurn || ended) {
        s.awaitingTurn = null;
        const note = this.waiting?.note;
        if (note) {
          if (ofTurn) note.resolved = true;
          else note.abandoned = true;
          note.rev++;
          if (this.waiting?.turn) this.waiting.turn.rev++;
        }
        this.waiting = null;
      }
    }

    switch (event.type) {
      case 'turn-start': {
        this.turn(event).seqs.push(event.seq);
        break;
      }
      case 'message':
      case 'reasoning': {
        const turn = this.turn(event);
        turn.seqs.push(event.seq);
        const text = asText(event.text);
        // a non-streaming provider sends the whole text once (delta: false)
        if (event.type === 'message') turn.text = event.delta === false && !turn.text ? text : turn.text + text;
        else turn.reasoning += text;
        break;
      }
      case 'agent-message': {
        const turn = this.turn(event);
        turn.seqs.push(event.seq);
        if (!turn.text) turn.text = asText(event.text);
        break;
      }
      case 'turn-end': {
        const turn = this.turn(event);
        turn.seqs.push(event.seq);
        turn.endedAt = event.createdAt;
        if (this.openTurn === turn) this.openTurn = null;
        turn.end = { toolCalls: asNumber(event.toolCalls) ?? 0, finished: event.finished === true, directive: event.directive ?? null };
        const usage = asUsage(event.usage);
        if (usage) {
          turn.usage = usage;
          const total = (s.usage ??= { inputTokens: 0, outputTokens: 0 });
          total.inputTokens += usage.inputTokens;
          total.outputTokens += usage.outputTokens;
          if (usage.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + usage.costUsd;
        }
        break;
      }
      case 'tool-call': {
        const turn = this.turn(event);
        const callId = asText(event.callId);
        const via = event.via === 'code' ? 'code' : 'model';
        const node: CallNode = {
          kind: 'call',
          key: `c${event.seq}`,
          rev: 0,
          seqs: [event.seq],
          callId,
          tool: asText(event.tool),
          via,
          args: event.args,
          denied: typeof event.denied === 'string' ? event.denied : undefined,
          status: 'pending',
          children: [],
        };
        turn.callCount++;
        s.callCount++;
        s.tools[node.tool] = (s.tools[node.tool] ?? 0) + 1;
        turn.tools[node.tool] = (turn.tools[node.tool] ?? 0) + 1;
        const parent = via === 'code' ? this.invokes.get(callId) : undefined;
        if (parent) {
          parent.children.push(node);
          parent.rev++;
        } else turn.items.push(node);
        if (via === 'model') this.invokes.set(callId, node);
        else this.pendingCode.set(callId, [...(this.pendingCode.get(callId) ?? []), node]);
        break;
      }
      case 'tool-result':
      case 'tool-error': {
        const turn = this.turn(event);
        const callId = asText(event.callId);
        if (event.type === 'tool-error') {
          // counted as run-outcome.ts counts: a failed tool call, or failed code with no failed tool call in it
          if (event.via === 'code') {
            s.failedCalls++;
            this.failedToolIn.add(callId);
          } else if (!this.failedToolIn.has(callId)) s.failedCalls++;
        }
        let node: CallNode | undefined;
        if (event.via === 'code') {
          // code calls share their invoke's callId: take the oldest pending one of this tool
          const queue = this.pendingCode.get(callId) ?? [];
          const i = queue.findIndex((c) => c.tool === event.tool);
          if (i >= 0) [node] = queue.splice(i, 1);
        } else node = this.invokes.get(callId);
        if (!node) {
          turn.items.push({ kind: 'note', key: `n${event.seq}`, rev: 0, seqs: [event.seq], event });
          break;
        }
        node.rev++;
        node.seqs.push(event.seq);
        node.status = event.type === 'tool-result' ? 'ok' : 'error';
        if (node.status === 'error') {
          turn.errorCount++;
          s.errorCount++;
        }
        node.result = event.result;
        node.error = event.type === 'tool-error' ? asError(event.error) : undefined;
        node.durationMs = asNumber(event.durationMs);
        node.logs = Array.isArray(event.logs) ? (event.logs as string[]) : undefined;
        if (node.via === 'code') {
          const parent = this.invokes.get(callId);
          if (parent) parent.rev++;
        }
        break;
      }
      case 'error':
      case 'retry':
      case 'object':
      case 'awaiting-input': {
        if (event.type === 'awaiting-input') s.awaitingTurn = asNumber(event.turnNumber) ?? 0;
        // objects carry no turn number: they belong to the turn in progress
        const n = asNumber(event.turnNumber) ?? this.openTurn?.turnNumber;
        const turn = n !== undefined ? this.turns.get(n) : undefined;
        const note: NoteBlock = { kind: 'note', key: `n${event.seq}`, rev: 0, seqs: [event.seq], event };
        if (turn && !turn.end) {
          turn.rev++;
          turn.items.push(note);
          if (event.type === 'error') turn.errorCount++;
        } else s.blocks.push(note);
        if (event.type === 'awaiting-input') this.waiting = { note, turn };
        break;
      }
      case 'run-end': {
        const status = asText(event.status) as RunStatus;
        s.status = TERMINAL.includes(status) ? status : 'failed';
        s.endedAt = event.createdAt;
        s.outcome = { rule: asText(event.rule) || null, reason: asText(event.reason) || null };
        if (typeof event.failedCalls === 'number') s.failedCalls = event.failedCalls;
        // a turn still open when the run ended never finishes: say so instead of "in progress"
        for (const turn of this.turns.values()) {
          if (turn.end || s.status === 'succeeded') continue;
          turn.interrupted = s.status === 'cancelled' ? 'cancelled' : 'failed';
          turn.endedAt = event.createdAt;
          turn.rev++;
          for (const item of turn.items) if (item.kind === 'call') this.settle(item, turn.interrupted);
        }
        this.openTurn = null;
        this.note(event);
        break;
      }
      default:
        this.note(event);
    }
    return true;
  }

  /** A call still pending when its run ended will get no result: it is marked as such. */
  private settle(node: CallNode, how: 'failed' | 'cancelled') {
    for (const child of node.children) this.settle(child, how);
    if (node.status !== 'pending') return;
    node.status = 'error';
    node.error = {
      code: how === 'cancelled' ? 'run/cancelled' : 'run/ended',
      message: how === 'cancelled' ? 'the run was cancelled during this call' : 'the run ended during this call',
    };
    node.rev++;
  }

  /** A new top-level object after a batch, so React sees the change. */
  snapshot(): TraceState {
    return { ...this.state, blocks: this.state.blocks.slice() };
  }
}

/** The failed calls of a call tree, the call itself first when it failed. */
export function failedCalls(node: CallNode): CallNode[] {
  const out: CallNode[] = node.status === 'error' ? [node] : [];
  for (const c of node.children) out.push(...failedCalls(c));
  return out;
}

/** Pretty duration: 850 ms, 1.25 s, 2 min 5 s. */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** "1 call", "200 calls": counts in words that agree with the number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
