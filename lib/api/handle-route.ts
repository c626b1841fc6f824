// One wrapper for every /api/v1 route: parse, identify the caller, act, and map every
// failure to `{error: {code, message}}` with the right status. Unexpected errors are
// logged (without request bodies) and answered as a generic 500.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { db } from '../db/client';
import { AppError, isAppError } from '../errors';
import { authenticateApiToken, type ApiPrincipal } from '../auth/api-tokens';
import { RuntimeError, httpStatusFor } from '../runtime';

export type RouteContext<P> = { params: Promise<P> };
export type ApiRequestContext<P> = { req: Request; params: P; principal: ApiPrincipal | null };

export function errorResponse(code: string, message: string, status: number, headers?: HeadersInit) {
  return NextResponse.json({ error: { code, message } }, { status, headers });
}

export function toErrorResponse(err: unknown) {
  if (isAppError(err)) return errorResponse(err.code, err.message, err.status);
  if (err instanceof RuntimeError) return errorResponse(err.code, err.message, httpStatusFor(err.code));
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return errorResponse('input/invalid', `${issue?.message ?? 'invalid input'}${where}`, 400);
  }
  console.error('[api] unexpected error:', err instanceof Error ? err.stack : err);
  return errorResponse('internal', 'Something went wrong on our side.', 500);
}

export function handleRoute<P>(
  handler: (ctx: ApiRequestContext<P>) => Promise<Response>,
): (req: Request, route: RouteContext<P>) => Promise<Response> {
  return async (req, route) => {
    try {
      const principal = await authenticateApiToken(db(), req.headers.get('authorization'));
      return await handler({ req, params: await route.params, principal });
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

const MAX_JSON_BYTES = 1024 * 1024;

/** Reads a JSON body of at most 1 MB and parses it with `schema`. */
export async function readJson<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  const text = await req.text();
  if (text.length > MAX_JSON_BYTES) throw new AppError('input/too-large', 'The request body is larger than 1 MB.', 413);
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError('input/invalid-json', 'The request body is not valid JSON.');
  }
  return schema.parse(value);
}
