import { NextResponse } from 'next/server';
import { serverContext } from '@/lib/server';
import { withApi, runAccessFrom } from '@/lib/api';
import { AppError } from '@/lib/errors';
import { getRun, parseAfterSeq, runEventPage, streamRunEvents } from '@/lib/runs';

export const dynamic = 'force-dynamic';

// Server-Sent Events by default; `?format=json`: the stored events after `after` as one
// JSON page ({ events, lastSeq, more }), with the same authorization as the stream.
export const GET = withApi<{ id: string }>({ scope: 'runs', concurrency: 'stream' }, async ({ req, params, userId, takeHold }) => {
  const query = new URL(req.url).searchParams;
  const format = query.get('format');
  if (format !== null && format !== 'json' && format !== 'sse') {
    throw new AppError('input/invalid', 'format must be "json" or "sse".');
  }
  const after = parseAfterSeq(req.headers.get('last-event-id'), query.get('after'));
  await getRun(serverContext().db, params.id, runAccessFrom(req, params.id, userId)); // 404 unless visible
  if (format === 'json') {
    return NextResponse.json(await runEventPage(serverContext().db, params.id, after), { headers: { 'Cache-Control': 'no-store' } });
  }
  // the stream ends the caller's hold on its stream count itself (no wrapper stream per viewer)
  return new Response(streamRunEvents(serverContext().db, params.id, after, req.signal, { onRelease: takeHold() }), {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
});
