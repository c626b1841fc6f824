// The viewers of bench/fanout.ts, light enough not to be the bottleneck they measure: each
// stream is a plain HTTP/1.1 socket whose chunks are kept with the time they arrived
// (nothing is parsed while events arrive: parsing 1,000 streams in the receiving loop
// delayed the later sockets' reads); after the run ends every stream is decoded
// (chunked transfer encoding, then SSE frames) and each live event's delay is its
// arrival minus its createdAt. Args: url, count, first (address offset).
import net from 'node:net';

const [url, count, first] = [new URL(process.argv[2]), Number(process.argv[3]), Number(process.argv[4] ?? 0)];
const connectedAt = Date.now();

type Stream = { chunks: Buffer[]; at: number[]; done: Promise<void> };

function open(i: number): Promise<Stream> {
  const n = first + i;
  const xff = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const at: number[] = [];
    let headersSeen = false;
    let endDone: () => void;
    const done = new Promise<void>((r) => (endDone = r));
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nX-Forwarded-For: ${xff}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      at.push(Date.now());
      chunks.push(chunk);
      if (!headersSeen && Buffer.concat(chunks).includes('\r\n\r\n')) {
        headersSeen = true;
        const head = Buffer.concat(chunks).toString('latin1');
        if (!head.startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(head.split('\r\n')[0]));
        } else resolve({ chunks, at, done });
      }
    });
    socket.on('error', (err) => (headersSeen ? endDone() : reject(err)));
    // the server ends the response after `event: end` (chunked terminator); the socket stays open (keep-alive)
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - 7))).slice(-7);
      if (tail === '\r\n0\r\n\r\n') socket.destroy();
    });
    socket.on('close', () => endDone());
  });
}

async function openWithRetry(i: number): Promise<Stream | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(i);
    } catch {
      if (attempt >= 5) return null;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
}

/** the stream's SSE frames (after the HTTP head, chunked encoding removed), each with the arrival time of its last byte */
function frames(s: Stream): Array<{ text: string; at: number }> {
  const out: Array<{ text: string; at: number }> = [];
  // body bytes with the arrival time of each byte's chunk, recorded per run of bytes
  let body = '';
  const marks: Array<{ end: number; at: number }> = [];
  let raw = '';
  let rawMarks: Array<{ end: number; at: number }> = [];
  for (let k = 0; k < s.chunks.length; k++) {
    raw += s.chunks[k].toString('latin1');
    rawMarks.push({ end: raw.length, at: s.at[k] });
  }
  const atRaw = (pos: number) => rawMarks.find((m) => m.end > pos)!.at;
  let pos = raw.indexOf('\r\n\r\n') + 4;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', pos);
    if (lineEnd < 0) break;
    const size = parseInt(raw.slice(pos, lineEnd), 16);
    if (!size) break;
    const start = lineEnd + 2;
    // a chunk's bytes may have come in several reads: each byte keeps its own arrival time
    for (let p = start; p < start + size;) {
      const mark = rawMarks.find((m) => m.end > p)!;
      const stop = Math.min(mark.end, start + size);
      body += raw.slice(p, stop);
      marks.push({ end: body.length, at: atRaw(p) });
      p = stop;
    }
    pos = start + size + 2;
  }
  rawMarks = [];
  let from = 0;
  for (;;) {
    const end = body.indexOf('\n\n', from);
    if (end < 0) break;
    out.push({ text: Buffer.from(body.slice(from, end), 'latin1').toString('utf8'), at: marks.find((m) => m.end >= end + 2)!.at });
    from = end + 2;
  }
  return out;
}

const streams: Array<Stream | null> = [];
for (let i = 0; i < count; i += 100) streams.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => openWithRetry(i + j)))));
process.stdout.write('connected\n');
await Promise.all(streams.map((s) => s?.done));

const latencies: number[] = [];
const perClient: number[] = [];
/** per event seq: the earliest and latest arrival delay over all viewers of this process */
const bySeq: Record<number, [number, number]> = {};
let received = 0;
let duplicates = 0;
for (const s of streams) {
  if (!s) continue;
  const seen = new Set<number>();
  for (const f of frames(s)) {
    const id = /^id: (\d+)$/m.exec(f.text);
    if (!id) continue; // the end event, a heartbeat
    const seq = Number(id[1]);
    if (seen.has(seq)) duplicates++;
    seen.add(seq);
    received++;
    const data = f.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    const created = Date.parse((JSON.parse(data) as { createdAt: string }).createdAt);
    if (created < connectedAt) continue;
    const delay = f.at - created;
    latencies.push(delay);
    const b = (bySeq[seq] ??= [delay, delay]);
    b[0] = Math.min(b[0], delay);
    b[1] = Math.max(b[1], delay);
  }
  perClient.push(seen.size);
}
const failed = streams.filter((s) => !s).length;
process.stdout.write(JSON.stringify({ received, duplicates, failed, latencies, perClient, bySeq }) + '\n');
