'use server';
// The playground's mutations from the browser: start a run (new, or an edited re-run
// of one the viewer may see), fork one. Each parses its input, then goes through the action
// chain (origin, rate limit), checks access through lib/runs, and hands the browser the run's control token
// as an httpOnly cookie (the API reads the same cookie for cancel and manual turns).
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { serverAction, type ActionState } from '@/lib/actions';
import { AppError } from '@/lib/errors';
import { runCookieName } from '@/lib/api';
import { createRun, forkRun, ForkVersionsSchema, getRun, RunConfigSchema } from '@/lib/runs';
import { accountKey } from '@/lib/principal';

export type StartRunState = ActionState;

const RunId = z.string().regex(/^[a-z0-9]{20,40}$/);

// Runs are anonymous for now (no web sign-in yet): the control token is the creator's key.
const RUN_COOKIE_MAX_AGE = 60 * 60 * 24 * 30;

async function rememberControlToken(runId: string, controlToken: string) {
  const h = await headers();
  // tests and local use run over plain http: mark the cookie secure only behind https
  const proto = h.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? (h.get('origin')?.startsWith('https:') ? 'https' : 'http');
  (await cookies()).set(runCookieName(runId), controlToken, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: proto === 'https',
    maxAge: RUN_COOKIE_MAX_AGE,
  });
}

const optionalInt = (v: FormDataEntryValue | null) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined);
const optionalText = (v: FormDataEntryValue | null) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function describe(err: z.ZodError): StartRunState {
  const issue = err.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  return { error: `${issue?.message ?? 'invalid input'}${field ? ` (${field})` : ''}`, field: field?.split('.')[0] };
}

/** A refusal of the form's input, about one field. */
const invalid = (message: string, field?: string) => new AppError('input/invalid', message, field ? { details: { field } } : {});

type StartForm = { provider: string; scriptText?: string; forkOf: string | null; fields: Record<string, unknown> };

const start = serverAction({ name: 'startRun' }, async (form: StartForm, { db, user, principal, address, chargeRate }) => {
  let script: unknown = undefined;
  if (form.provider === 'scripted' && form.scriptText) {
    try {
      script = JSON.parse(form.scriptText);
    } catch (err) {
      throw invalid(`The script is not valid JSON: ${(err as Error).message}`, 'script');
    }
  }
  // an edited re-run: the original must be one the viewer may see (as for a fork)
  const { forkOf } = form;
  if (forkOf !== null) {
    const original = RunId.safeParse(forkOf);
    const token = original.success ? ((await cookies()).get(runCookieName(original.data))?.value ?? null) : null;
    const seen = original.success ? await getRun(db, original.data, { userId: user?.id ?? null, controlToken: token }).catch(() => null) : null;
    if (!seen) throw invalid('The run to re-run does not exist.');
  }
  const parsed = RunConfigSchema.safeParse({ ...form.fields, provider: form.provider, script: script ?? null });
  if (!parsed.success) {
    const described = describe(parsed.error);
    throw invalid(described.error ?? 'invalid input', described.field);
  }
  // the same rate limit (and budget) as POST /api/v1/runs
  await chargeRate(5);
  // a signed-in user's run is theirs: it runs with their tokens and lists under My runs
  const run = await createRun(db, { config: parsed.data, userId: user?.id ?? null, principal: accountKey(principal, address), forkedFromId: forkOf });
  await rememberControlToken(run.id, run.controlToken);
  return { id: run.id };
});

export async function startRun(_prev: StartRunState, form: FormData): Promise<StartRunState> {
  const state = await start({
    provider: String(form.get('provider') ?? ''),
    scriptText: optionalText(form.get('script')),
    forkOf: optionalText(form.get('forkOf')) ?? null,
    fields: {
      skills: form.getAll('skill').map(String).filter(Boolean),
      allowedTools: optionalText(form.get('allowedTools')) ?? null,
      model: optionalText(form.get('model')) ?? null,
      task: String(form.get('task') ?? '').trim(),
      maxTurns: optionalInt(form.get('maxTurns')),
      maxSteps: optionalInt(form.get('maxSteps')),
      visibility: optionalText(form.get('visibility')),
    },
  });
  if (!state.ok) return state;
  redirect(`/playground/runs/${state.id}`);
}

type ForkForm = { runId: string; confirmed: unknown; versions: unknown };

const fork = serverAction({ name: 'forkRunAction' }, async (form: ForkForm, { db, user, principal, address, chargeRate }) => {
  // the fork runs the sharer's code with the forker's connections: the page shows that code
  // and asks first (run-header.tsx, fork-confirm.tsx); a call without the answer does nothing
  if (form.confirmed !== true) throw invalid('Confirm that this run may run as you, with your connections.');
  const id = RunId.safeParse(form.runId);
  if (!id.success) throw invalid('No such run.');
  // which versions the fork runs (fork-run.ts): the original's pins unless the person chose otherwise
  const choice = ForkVersionsSchema.optional().safeParse(form.versions);
  if (!choice.success) throw invalid('Choose the same versions, the latest, or one skill and a version.');
  await chargeRate(5);
  // anyone who can see the run may fork it; the fork is theirs (a new control token)
  // the fork runs as the forker, with the forker's tokens, never the sharer's
  const jar = await cookies();
  const controlToken = jar.get(runCookieName(id.data))?.value ?? null;
  const created = await forkRun(db, id.data, { userId: user?.id ?? null, controlToken }, { versions: choice.data }, accountKey(principal, address));
  await rememberControlToken(created.id, created.controlToken);
  return { id: created.id };
});

export async function forkRunAction(runId: string, confirmed?: unknown, versions?: unknown): Promise<{ error: string }> {
  const state = await fork({ runId, confirmed, versions });
  if (!state.ok || !state.id) return { error: state.error ?? 'The run was not forked.' };
  redirect(`/playground/runs/${state.id}`);
}
