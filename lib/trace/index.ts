// lib/trace: a run's trace from its events (trace-model.ts), two traces side by side
// (compare-traces.ts) and where agent code failed (code-position.ts). Pure: the browser's
// run view builds the same trace from the same events.
export {
  TraceBuilder,
  emptyTrace,
  isTerminal,
  failedCalls,
  formatMs,
  plural,
  type RunEvent,
  type TraceError,
  type CallNode,
  type TurnBlock,
  type Usage,
  type NoteBlock,
  type Block,
  type RunStatus,
  type TraceState,
} from './trace-model';
export {
  compareTraces,
  foldTrace,
  foldIdentical,
  alignCalls,
  isSubstantive,
  sameJson,
  TIMING_MIN_MS,
  TIMING_FACTOR,
  type CallField,
  type TurnField,
  type FlatCall,
  type CallRow,
  type TurnRow,
  type CompareRow,
  type FoldedRows,
  type TraceComparison,
} from './compare-traces';
export { userCodePosition, AGENT_CODE_LINE_OFFSET, type CodePosition } from './code-position';
