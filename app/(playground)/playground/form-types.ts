// Shapes shared by the playground page (server) and its form (client).
import type { ToolAvailability } from '@/app/_components/tool-availability';
import type { ScriptTurnDraft } from '@/lib/forms';

export type SelectedSkill = { ref: string; description: string; tools: ToolAvailability[] };

/** Everything the form holds; kept in sessionStorage so it survives Back. */
export type PlaygroundDraft = {
  skills: SelectedSkill[];
  provider: string;
  model: string;
  allowedTools: string;
  task: string;
  turns: ScriptTurnDraft[];
  maxTurns: number;
  maxSteps: number;
  visibility: 'unlisted' | 'public' | 'private';
  /** the run this one is an edited re-run of */
  forkOf: string | null;
  /** false while task and script are the ones generated from the first skill */
  edited: boolean;
};
