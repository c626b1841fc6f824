// The abuse bench's attacker speaks HTTP from addresses of its own (127.0.0.2 and up: Linux
// routes all of 127.0.0.0/8 on lo), never from the innocent client's 127.0.0.1, as an
// attacker in the world does not share its victim's address. A small fetch over node:http,
// since fetch cannot bind a socket's local address without the undici package.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

/** `count` loopback addresses for the attacker, 127.0.0.2 onwards. */
export function attackerAddresses(count: number): string[] {
  return Array.from({ length: Math.max(1, Math.min(250, count)) }, (_, i) => `127.0.0.${i + 2}`);
}

// one keep-alive pool per address (fetch keeps its connections alive too)
const agents = new Map<string, http.Agent>();
const agentFor = (localAddress: string) => {
  let agent = agents.get(localAddress);
  if (!agent) agents.set(localAddress, (agent = new http.Agent({ keepAlive: true, localAddress })));
  return agent;
};

export type AttackInit = {
  method?: string;
  headers?: Record<string, string | number>;
  /** a body, or chunks written as the socket takes them (chunked unless content-length is given) */
  body?: string | Buffer | Iterable<Uint8Array>;
  timeoutMs?: number;
  /** a connection of its own, closed after the answer (default: the address's keep-alive pool) */
  ownConnection?: boolean;
};

const failure = (err: Error) => Object.assign(new Error(err.message), { name: (err as NodeJS.ErrnoException).code ?? err.name });

/** A request from `localAddress`, answered as a Response (the body read whole); a failure rejects with its code as name. */
export function attackFetch(url: string, localAddress: string, init: AttackInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        timeout: init.timeoutMs ?? 30_000,
        ...(init.ownConnection ? { agent: false, localAddress } : { agent: agentFor(localAddress) }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
        });
        res.on('error', (err) => reject(failure(err)));
      },
    );
    // a refused body cuts the connection: say so a moment later (as a client would see it)
    req.on('error', (err) => setTimeout(() => reject(failure(err)), 100));
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TimeoutError' })));
    const body = init.body;
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    void (async () => {
      try {
        for (const chunk of body) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await once(req, 'drain');
        }
        req.end();
      } catch {
        // the server stopped reading: its answer (or the cut) settles the promise
      }
    })();
  });
}

/** A raw connection from `localAddress` to the server's port on 127.0.0.1. */
export function attackConnect(port: number, localAddress: string, onConnect: () => void): net.Socket {
  return net.connect({ port, host: '127.0.0.1', localAddress }, onConnect);
}
