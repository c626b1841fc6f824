export {};
// The SSE clients of bench/agent.ts, in a process of their own as browsers would be:
// says "ready", reads the ids of runs (one line of JSON on stdin), follows each run's
// event stream to its end and prints JSON with the arrival delay of every event
// (arrival − creation) and counts.
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
await Promise.all(
  ids.map(async (id) => {
    const res = await fetch(`${base}/${id}`);
    const seen = new Set<number>();
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const now = Date.now();
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (!block.startsWith('id: ')) continue;
        const seq = Number(block.slice(4, block.indexOf('\n')));
        const data = JSON.parse(block.slice(block.indexOf('data: ') + 6));
        if (seen.has(seq)) duplicates++;
        seen.add(seq);
        received++;
        latencies.push(now - Date.parse(data.createdAt));
      }
    }
  }),
);
process.stdout.write(JSON.stringify({ received, duplicates, latencies }));
