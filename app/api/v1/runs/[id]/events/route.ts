import { serverContext } from '@/lib/server';
import { withApi } from '@/lib/api/with-api';
import { runAccessFrom } from '@/lib/api/run-access';
import { getRun } from '@/lib/runs/get-run';
import { parseAfterSeq } from '@/lib/runs/parse-after-seq';
import { streamRunEvents } from '@/lib/runs/stream-run-events';

export const dynamic = 'force-dynamic';

export const GET = withApi<{ id: string }>({ scope: 'runs', concurrency: false }, async ({ req, params, userId }) => {
  const after = parseAfterSeq(req.headers.get('last-event-id'), new URL(req.url).searchParams.get('after'));
  await getRun(serverContext().db, params.id, runAccessFrom(req, params.id, userId)); // 404 unless visible
  return new Response(streamRunEvents(serverContext().db, params.id, after, req.signal), {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
});
