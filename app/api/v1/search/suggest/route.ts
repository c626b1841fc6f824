// GET /api/v1/search/suggest?q=wrod+cou: a few skills as you type (name and tool names,
// the last word as a prefix, typos widened). Called per debounced keystroke, so besides
// the general budget it has its own, smaller one per caller (SKILLYARD_RATE_LIMIT_SUGGEST
// per window, default 240 a minute: four a second for a whole minute of typing).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { AppError } from '@/lib/errors';
import { withApi } from '@/lib/api';
import { httpLimits, consumeRateLimit, rateLimitHeaders } from '@/lib/limits';
import { privateScopesOf } from '@/lib/authz';
import { suggestSkills } from '@/lib/registry';
import { principalKey } from '@/lib/principal';
import { setting } from '@/lib/config';

export const dynamic = 'force-dynamic';

const Query = z.object({ q: z.string().max(200).default(''), limit: z.coerce.number().int().min(1).max(10).optional() });

export const GET = withApi({}, async ({ req, principal, caller }) => {
  const { db } = serverContext();
  const windowMs = httpLimits().rateWindowMs;
  const who = principalKey(principal, caller.ip);
  const decision = await consumeRateLimit(db, `suggest:${who}`, { limit: setting('SKILLYARD_RATE_LIMIT_SUGGEST'), windowMs });
  if (!decision.allowed) {
    throw new AppError('rate/limited', `Too many suggestions; retry in ${Math.max(1, Math.ceil(decision.resetMs / 1000))} s.`);
  }
  const parsed = Query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new AppError('input/invalid', 'q is a query of up to 200 characters; limit is 1 to 10.');
  const viewerScopes = principal.kind === 'anonymous' ? [] : await privateScopesOf(db, principal.userId);
  const out = await suggestSkills(db, { q: parsed.data.q, limit: parsed.data.limit, viewerScopes });
  return NextResponse.json(out, { headers: { ...rateLimitHeaders(decision, windowMs), 'Cache-Control': 'private, max-age=30' } });
});
