'use server';
// The playground's mutations from the browser: start a run (new, or an edited re-run
// of one the viewer may see), fork one. Each checks the origin (CSRF) first, parses its
// input, checks access through lib/runs, and hands the browser the run's control token
// as an httpOnly cookie (the API reads the same cookie for cancel and manual turns).
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { limitActionCall } from '@/lib/auth/action-rate-limit';
import { currentUser } from '@/lib/auth/current-user';
import { assertSameOrigin } from '@/lib/auth/same-origin';
import { serverContext } from '@/lib/server';
import { actionFailure } from '@/lib/api/action-failure';
import { runCookieName } from '@/lib/api/run-access';
import { createRun } from '@/lib/runs/create-run';
import { forkRun, ForkVersionsSchema } from '@/lib/runs/fork-run';
import { getRun } from '@/lib/runs/get-run';
import { RunConfigSchema } from '@/lib/runs/run-config';
import { accountKey, clientAddressOf, userPrincipal } from '@/lib/principal';

export type StartRunState = { error: string | null; field?: string };

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

/** The origin check of every action here: a cross-site form starts nothing and spends nobody's budget. */
async function sameOriginRefusal(where: string): Promise<string | null> {
  try {
    await assertSameOrigin();
    return null;
  } catch (err) {
    return (await actionFailure(err, where)).message;
  }
}

export async function startRun(_prev: StartRunState, form: FormData): Promise<StartRunState> {
  const refused = await sameOriginRefusal('startRun');
  if (refused) return { error: refused };
  const provider = String(form.get('provider') ?? '');
  let script: unknown = undefined;
  const scriptText = optionalText(form.get('script'));
  if (provider === 'scripted' && scriptText) {
    try {
      script = JSON.parse(scriptText);
    } catch (err) {
      return { error: `The script is not valid JSON: ${(err as Error).message}`, field: 'script' };
    }
  }
  // an edited re-run: the original must be one the viewer may see (as for a fork)
  const user = await currentUser();
  const forkOf = optionalText(form.get('forkOf')) ?? null;
  if (forkOf !== null) {
    const original = RunId.safeParse(forkOf);
    if (!original.success) return { error: 'The run to re-run does not exist.' };
    const token = (await cookies()).get(runCookieName(original.data))?.value ?? null;
    const seen = await getRun(serverContext().db, original.data, { userId: user?.id ?? null, controlToken: token }).catch(() => null);
    if (!seen) return { error: 'The run to re-run does not exist.' };
  }
  const parsed = RunConfigSchema.safeParse({
    skills: form.getAll('skill').map(String).filter(Boolean),
    allowedTools: optionalText(form.get('allowedTools')) ?? null,
    provider,
    model: optionalText(form.get('model')) ?? null,
    script: script ?? null,
    task: String(form.get('task') ?? '').trim(),
    maxTurns: optionalInt(form.get('maxTurns')),
    maxSteps: optionalInt(form.get('maxSteps')),
    visibility: optionalText(form.get('visibility')),
  });
  if (!parsed.success) return describe(parsed.error);

  let id: string;
  try {
    // the same rate limit (and budget) as POST /api/v1/runs
    await limitActionCall(serverContext().db, await headers(), user?.id ?? null, 5);
    // a signed-in user's run is theirs: it runs with their tokens and lists under My runs
    const run = await createRun(serverContext().db, {
      config: parsed.data,
      userId: user?.id ?? null,
      principal: accountKey(userPrincipal(user?.id), clientAddressOf(await headers())),
      forkedFromId: forkOf,
    });
    await rememberControlToken(run.id, run.controlToken);
    id = run.id;
  } catch (err) {
    if (err instanceof z.ZodError) return describe(err);
    return { error: (await actionFailure(err, 'startRun')).message };
  }
  redirect(`/playground/runs/${id}`);
}

export async function forkRunAction(runId: string, confirmed?: unknown, versions?: unknown): Promise<{ error: string }> {
  const refused = await sameOriginRefusal('forkRunAction');
  if (refused) return { error: refused };
  // the fork runs the sharer's code with the forker's connections: the page shows that code
  // and asks first (run-header.tsx, fork-confirm.tsx); a call without the answer does nothing
  if (confirmed !== true) return { error: 'Confirm that this run may run as you, with your connections.' };
  const id = RunId.safeParse(runId);
  if (!id.success) return { error: 'No such run.' };
  // which versions the fork runs (fork-run.ts): the original's pins unless the person chose otherwise
  const choice = ForkVersionsSchema.optional().safeParse(versions);
  if (!choice.success) return { error: 'Choose the same versions, the latest, or one skill and a version.' };
  const jar = await cookies();
  let forkId: string;
  try {
    // anyone who can see the run may fork it; the fork is theirs (a new control token)
    // the fork runs as the forker, with the forker's tokens, never the sharer's
    const user = await currentUser();
    await limitActionCall(serverContext().db, await headers(), user?.id ?? null, 5);
    const fork = await forkRun(
      serverContext().db,
      id.data,
      { userId: user?.id ?? null, controlToken: jar.get(runCookieName(id.data))?.value ?? null },
      { versions: choice.data },
      accountKey(userPrincipal(user?.id), clientAddressOf(await headers())),
    );
    await rememberControlToken(fork.id, fork.controlToken);
    forkId = fork.id;
  } catch (err) {
    return { error: (await actionFailure(err, 'forkRunAction')).message };
  }
  redirect(`/playground/runs/${forkId}`);
}
