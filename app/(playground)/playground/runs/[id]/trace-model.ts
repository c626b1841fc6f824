// Folds a run's event stream into timeline blocks, one event at a time. Blocks are
// mutated in place and carry a `rev` that goes up on every change, so the view can
// re-render only what an event touched (memo by rev) instead of re-deriving the trace.

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
};

/** An event shown on its own: start, errors, retries, objects, awaiting input, the end. */
export type NoteBlock = { kind: 'note'; key: string; rev: number; seqs: number[]; event: RunEvent; resolved?: boolean };

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
};

export function emptyTrace(status: RunStatus): TraceState {
  return { blocks: [], lastSeq: 0, count: 0, duplicates: 0, gaps: 0, status, awaitingTurn: null, startedAt: null, endedAt: null };
}

const TERMINAL: RunStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (s: RunStatus) => TERMINAL.includes(s);

const asText = (v: unknown) => (typeof v === 'string' ? v : '');
const asNumber = (v: unknown) => (typeof v === 'number' ? v : undefined);
const asError = (v: unknown): TraceError =>
  v && typeof v === 'object' ? { code: asText((v as TraceError).code) || 'error', message: asText((v as TraceError).message) } : { code: 'error', message: String(v) };

/** The mutable index behind a TraceState: where each turn and call lives. */
export class TraceBuilder {
  state: TraceState;
  private turns = new Map<number, TurnBlock>();
  private invokes = new Map<string, CallNode>();
  private pendingCode = new Map<string, CallNode[]>();
  private openTurn: TurnBlock | null = null;
  private waiting: { note: Block | CallNode | NoteBlock | undefined; turn: TurnBlock | undefined } | null = null;

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
      turn = { kind: 'turn', key: `t${n}`, rev: 0, seqs: [], turnNumber: n, startedAt: event.createdAt, text: '', reasoning: '', items: [] };
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
      s.awaitingTurn = null;
      // the wait is over: its note now says so
      if (this.waiting?.note?.kind === 'note') {
        this.waiting.note.resolved = true;
        this.waiting.note.rev++;
        if (this.waiting.turn) this.waiting.turn.rev++;
      }
      this.waiting = null;
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
        if (turn && !turn.end) {
          turn.rev++;
          turn.items.push({ kind: 'note', key: `n${event.seq}`, rev: 0, seqs: [event.seq], event });
        } else this.note(event);
        if (event.type === 'awaiting-input') this.waiting = { note: turn?.items.at(-1) ?? s.blocks.at(-1), turn };
        break;
      }
      case 'run-end': {
        const status = asText(event.status) as RunStatus;
        s.status = TERMINAL.includes(status) ? status : 'failed';
        s.endedAt = event.createdAt;
        this.note(event);
        break;
      }
      default:
        this.note(event);
    }
    return true;
  }

  /** A new top-level object after a batch, so React sees the change. */
  snapshot(): TraceState {
    return { ...this.state, blocks: this.state.blocks.slice() };
  }
}
