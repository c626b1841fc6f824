// The SSE clients of bench/agent.ts, in a process of their own as browsers would be:
// says "ready", reads the ids of runs (one line of JSON on stdin), opens every run's
// event stream, says "connected" once all are open, follows each to its end and prints
// JSON with the arrival delay (arrival − creation) of every event written after its
// client connected, the count of those written before (backfill) and counts. Parsed
// with eventsource-parser, as EventSource would.
import { createParser } from 'eventsource-parser';

const [base] = process.argv.slice(2);
process.stdout.write('ready\n');
const ids: string[] = await new Promise((resolve) => {
  let input = '';
  process.stdin.on('data', (chunk) => {
    input += chunk;
    if (input.includes('\n')) {
      process.stdin.destroy();
      resolve(JSON.parse(input));
    }
  });
});

const latencies: number[] = [];
let received = 0;
let duplicates = 0;
let backfilled = 0;
const streams = await Promise.all(ids.map(async (id) => ({ res: await fetch(`${base}/${id}`), connectedAt: Date.now() })));
process.stdout.write('connected\n');
await Promise.all(
  streams.map(async ({ res, connectedAt }) => {
    const seen = new Set<number>();
    const decoder = new TextDecoder();
    let now = Date.now();
    const parser = createParser({
      onEvent(message) {
        if (message.id === undefined || message.event !== undefined) return; // the `end` event
        const seq = Number(message.id);
        const data = JSON.parse(message.data) as { createdAt: string };
        if (seen.has(seq)) duplicates++;
        seen.add(seq);
        received++;
        const created = Date.parse(data.createdAt);
        if (created < connectedAt) backfilled++;
        else latencies.push(now - created);
      },
    });
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      now = Date.now();
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  }),
);
process.stdout.write(JSON.stringify({ received, duplicates, latencies, backfilled }));
