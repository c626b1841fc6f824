// What a playground run is asked to do. API keys are never part of it: they come from
// the server's configuration when the run executes.
import 'server-only';
import { z } from 'zod';

export const ScriptTurnSchema = z.union([z.string().max(20_000), z.object({ text: z.string().max(20_000).optional(), code: z.string().max(20_000).optional() }).strict()]);

export const RunConfigSchema = z
  .object({
    skills: z.array(z.string().max(200)).min(1, 'pick at least one skill').max(20),
    /** allowed-tools spec for the agent (globs); empty = discovery mode over the skills' tools */
    allowedTools: z.string().max(2000).nullish(),
    provider: z.enum(['scripted', 'manual', 'openai', 'anthropic']),
    model: z.string().max(200).nullish(),
    script: z.array(ScriptTurnSchema).max(200).nullish(),
    task: z.string().min(1, 'say what the agent should do').max(20_000),
    maxTurns: z.number().int().min(1).max(100).default(30),
    maxSteps: z.number().int().min(1).max(200).default(30),
    visibility: z.enum(['public', 'unlisted', 'private']).default('unlisted'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.provider === 'scripted' && !c.script?.length) {
      ctx.addIssue({ code: 'custom', path: ['script'], message: 'a scripted run needs a script (one item per model turn)' });
    }
  });

export type ScriptTurn = z.infer<typeof ScriptTurnSchema>;
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
