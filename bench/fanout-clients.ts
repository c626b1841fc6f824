// The viewers of bench/fanout.ts, in a process of their own as browsers would be: opens
// N event streams of one run, each from its own address (X-Forwarded-For, the server
// trusts one proxy), says "connected", follows every stream to its end and prints JSON:
// the arrival delay (arrival − creation) of each live event, and events lost or repeated.
import { createParser } from 'eventsource-parser';

const [url, count] = [process.argv[2], Number(process.argv[3])];
const latencies: number[] = [];
let received = 0;
let duplicates = 0;
let failed = 0;
const perClient: number[] = [];
const connectedAt = Date.now();

const open = async (i: number) => {
  const xff = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { headers: { 'x-forwarded-for': xff, accept: 'text/event-stream' } }).catch(() => null);
    if (res?.ok && res.body) return res;
    if (attempt >= 5) {
      failed++;
      return null;
    }
    await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
  }
};

const streams: Array<Response | null> = [];
for (let i = 0; i < count; i += 100) streams.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j)))));
process.stdout.write('connected\n');

await Promise.all(
  streams.map(async (res) => {
    if (!res) return;
    const seen = new Set<number>();
    const decoder = new TextDecoder();
    let now = Date.now();
    const parser = createParser({
      onEvent(message) {
        if (message.id === undefined || message.event !== undefined) return; // `end`
        const seq = Number(message.id);
        if (seen.has(seq)) duplicates++;
        seen.add(seq);
        received++;
        const created = Date.parse((JSON.parse(message.data) as { createdAt: string }).createdAt);
        if (created >= connectedAt) latencies.push(now - created);
      },
    });
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      now = Date.now();
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
    perClient.push(seen.size);
  }),
);
process.stdout.write(JSON.stringify({ received, duplicates, failed, latencies, perClient }) + '\n');
