// The one chain of every server action (CONVENTIONS habit 1): the same-origin check
// (CSRF), who is asking (lib/principal), the sign-in the action needs, its input parsed
// with a schema, the API's rate limit when it costs as much as an API call, then the
// operation. One result shape for every form: `{ ok, error, code?, field?, ... }`.
// Expected failures (AppError, ZodError) come back as their message; unexpected ones are
// logged with the request id, which the form shows. Next's redirect()/notFound() pass.
// The bodies of action POSTs are limited before Next reads them (lib/api/action-body-limit.ts).
// Every exported action in app/ and lib/ is built with it: test/server-actions.int.test.ts
// fails an action whose origin check runs outside the chain.
import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { z } from 'zod';
import { actionFailure } from '../api';
import { limitActionCall } from '../limits';
import { currentUser, type CurrentUser } from '../session';
import { assertSameOrigin } from '../auth';
import type { Db } from '../db';
import { AppError, isErrorCode } from '../errors';
import { clientAddressOf, userPrincipal, type Principal } from '../principal';
import { serverContext } from '../server';

/** What every action answers: `ok`, the message of what went wrong, and the action's own fields. */
export type ActionState<D extends object = object> = {
  /** unset only in a form's initial state */
  ok?: boolean;
  error: string | null;
  /** the error's stable code (docs/errors.md) */
  code?: string;
  /** the input field the error is about */
  field?: string;
} & Partial<D>;

/** What an action answers, as the caller reads it: its fields on success, the failure otherwise (narrowed by `ok`). */
export type ActionResult<D extends object = object> = ({ ok: true; error: null } & D) | { ok: false; error: string; code?: string; field?: string };

export type ActionContext = {
  db: Db;
  /** the signed-in user (a session: actions take no API tokens), or null */
  user: CurrentUser | null;
  principal: Principal;
  /** the client's address, for the audit log and anonymous keys */
  address: string | null;
  /** charges the API's rate-limit budget now (an action that validates its input first) */
  chargeRate: (cost: number) => Promise<void>;
};
export type SignedInContext = ActionContext & { user: CurrentUser };

type Common<I> = {
  /** names the action in the log */
  name: string;
  /** parses the action's input (a plain object the action file builds from its form) */
  input?: z.ZodType<I>;
  /** charged to the API's rate-limit budget (user or address), as the route that does the same */
  rateCost?: number;
};
type SignedInSpec<I> = Common<I> & {
  /** signed out: the error to show, or a page to send the person to */
  signedIn: { message: string } | { redirectTo: string };
};

const isNextControlFlow = (err: unknown) => Boolean(err && typeof err === 'object' && 'digest' in err);

/** The input field an error is about: a ZodError's first path, or an AppError's `details.field`. */
function fieldOf(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const given = (err as { details?: { field?: unknown } }).details?.field;
  if (typeof given === 'string') return given;
  if ((err as { name?: unknown }).name !== 'ZodError') return undefined;
  const path = (err as z.ZodError).issues[0]?.path;
  return path?.length ? String(path[0]) : undefined;
}

/** The action's answer for a thrown value (rethrows Next's redirect and notFound). */
export async function failedState(err: unknown, name: string): Promise<ActionResult & { ok: false }> {
  if (isNextControlFlow(err)) throw err;
  const failure = await actionFailure(err, name);
  const field = fieldOf(err);
  return { ok: false, error: failure.message, code: failure.code, ...(field ? { field } : {}) };
}

export function serverAction<I, D extends object>(spec: SignedInSpec<I>, run: (input: I, ctx: SignedInContext) => Promise<D | void>): (raw?: unknown) => Promise<ActionResult<D>>;
export function serverAction<I, D extends object>(spec: Common<I>, run: (input: I, ctx: ActionContext) => Promise<D | void>): (raw?: unknown) => Promise<ActionResult<D>>;
export function serverAction<I, D extends object>(
  spec: Common<I> & { signedIn?: SignedInSpec<I>['signedIn'] },
  run: (input: I, ctx: ActionContext & { user: CurrentUser }) => Promise<D | void>,
): (raw?: unknown) => Promise<ActionResult<D>> {
  return async (raw) => {
    try {
      await assertSameOrigin();
      const user = await currentUser();
      if (!user && spec.signedIn) {
        if ('redirectTo' in spec.signedIn) redirect(spec.signedIn.redirectTo);
        throw new AppError('auth/unauthenticated', spec.signedIn.message);
      }
      const h = await headers();
      const db = serverContext().db;
      const principal = userPrincipal(user?.id);
      const address = clientAddressOf(h);
      const chargeRate = (cost: number) => limitActionCall(db, { principal, address }, cost);
      const ctx = { db, user, principal, address, chargeRate };
      const input = spec.input ? spec.input.parse(raw) : (raw as I);
      if (spec.rateCost) await chargeRate(spec.rateCost);
      const out = await run(input, ctx as ActionContext & { user: CurrentUser });
      return { ok: true, error: null, ...(out ?? {}) } as ActionResult<D>;
    } catch (err) {
      return failedState(err, spec.name);
    }
  };
}

/** A failed state as an error to throw, for a form action that answers nothing (its code kept). */
export function actionError(state: ActionState): Error {
  const code = state.code && isErrorCode(state.code) ? state.code : 'internal';
  return new AppError(code, state.error ?? 'The action failed.');
}

/** A form field as text, or undefined when absent or a file. */
export function formText(form: FormData, key: string): string | undefined {
  const v = form.get(key);
  return typeof v === 'string' ? v : undefined;
}
