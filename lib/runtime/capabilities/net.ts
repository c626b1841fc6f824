// The `net` capability: fetch only to hosts the skill lists in its metadata
// (`metadata.net.hosts`, or `metadata.allowedHosts` / `metadata.hosts`), with a byte limit,
// a deadline, and every redirect target checked against the same list.

import { RuntimeError } from '../errors';
import { globMatch } from '../allowed-tools';
import type { NetOptions } from './types';

export type NetRequest = { method?: string; headers?: Record<string, string>; body?: string };
export type NetResponse = { status: number; url: string; headers: Record<string, string>; body: string };

export function allowedHostsOf(metadata: Record<string, unknown> | undefined): string[] {
  const m = metadata ?? {};
  const net = m.net as { hosts?: unknown } | undefined;
  const lists = [net && typeof net === 'object' ? net.hosts : undefined, m.allowedHosts, m['allowed-hosts'], m.hosts];
  const out: string[] = [];
  for (const l of lists) {
    if (Array.isArray(l)) out.push(...l.filter((h): h is string => typeof h === 'string'));
    else if (typeof l === 'string') out.push(...l.split(/[\s,]+/).filter(Boolean));
  }
  return out.map((h) => h.toLowerCase());
}

function hostAllowed(url: URL, hosts: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const hostPort = url.port ? `${host}:${url.port}` : host;
  return hosts.some((h) => globMatch(h, h.includes(':') ? hostPort : host));
}

export async function netFetch(rawUrl: string, init: NetRequest, hosts: string[], opts: NetOptions = {}): Promise<NetResponse> {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const doFetch = opts.fetch ?? globalThis.fetch;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new RuntimeError('capability/invalid-args', `net.fetch: not a URL: ${rawUrl}`);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new RuntimeError('net/host-not-allowed', `net.fetch: only http and https are allowed, not ${url.protocol}`);
      }
      if (!hostAllowed(url, hosts)) {
        throw new RuntimeError(
          'net/host-not-allowed',
          `net.fetch: host ${url.host} is not listed in the skill's metadata.net.hosts (${hosts.length ? hosts.join(', ') : 'none listed'})`,
        );
      }
      const res = await doFetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        if (hop >= maxRedirects) throw new RuntimeError('net/failed', `net.fetch: more than ${maxRedirects} redirects`);
        url = new URL(location, url);
        continue;
      }
      const declared = Number(res.headers.get('content-length') ?? '0');
      if (declared > maxBytes) throw new RuntimeError('net/too-large', `net.fetch: response is ${declared} bytes, the limit is ${maxBytes}`);
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel();
            throw new RuntimeError('net/too-large', `net.fetch: response exceeds the limit of ${maxBytes} bytes`);
          }
          chunks.push(value);
        }
      }
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      return { status: res.status, url: url.toString(), headers, body: Buffer.concat(chunks).toString('utf8') };
    }
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    if (controller.signal.aborted) throw new RuntimeError('net/timeout', `net.fetch: no complete answer within ${timeoutMs} ms`);
    throw new RuntimeError('net/failed', `net.fetch: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
