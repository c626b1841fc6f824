// The `net` capability: fetch only to hosts the skill lists in its metadata
// (`metadata.net.hosts`, or `metadata.allowedHosts` / `metadata.hosts`), and only to public
// addresses (net-address.ts): each hop's host name is resolved once, every address it
// resolves to is checked, and the connection goes to the checked address (so a DNS answer
// that changes between check and connect cannot reach a private one). Redirects are
// followed by hand, each target checked again; a byte limit and a deadline hold throughout.

import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { RuntimeError } from '../errors';
import { globMatch } from '../allowed-tools';
import { blockedReason, parseAllowRanges } from './net-address';
import type { NetOptions } from './types';

export type NetRequest = { method?: string; headers?: Record<string, string>; body?: string };
export type NetResponse = { status: number; url: string; headers: Record<string, string>; body: string };
export type ResolvedAddress = { address: string; family: number };

/** the hosts a skill's metadata allows (lib/skills reads them; re-exported for the kernel's callers) */
export { allowedHostsOf } from '../../skills';

function hostAllowed(url: URL, hosts: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const hostPort = url.port ? `${host}:${url.port}` : host;
  return hosts.some((h) => globMatch(h, h.includes(':') ? hostPort : host));
}

const defaultResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/** Resolves `url`'s host once and returns the address to connect to, refusing any non-public answer. */
export async function checkedAddress(url: URL, opts: NetOptions, allow = parseAllowRanges(opts.allowRanges ?? [])): Promise<ResolvedAddress> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let answers: ResolvedAddress[];
  if (isIP(hostname)) answers = [{ address: hostname, family: isIP(hostname) }];
  else {
    try {
      answers = await (opts.resolve ?? defaultResolve)(hostname);
    } catch (err) {
      throw new RuntimeError('net/failed', `net.fetch: cannot resolve ${hostname}: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
    if (answers.length === 0) throw new RuntimeError('net/failed', `net.fetch: ${hostname} has no address`);
  }
  for (const a of answers) {
    const reason = blockedReason(a.address, allow);
    if (reason) {
      throw new RuntimeError(
        'net/host-not-allowed',
        // a name's answer is not shown: it would let a tool map the operator's internal DNS
        `net.fetch: ${hostname} ${isIP(hostname) ? 'is' : 'resolves to'} a ${reason} address; only public addresses are reachable (an operator can allow a range with SKILLYARD_NET_ALLOW)`,
      );
    }
  }
  return answers[0];
}

type RawResponse = { status: number; headers: Record<string, string>; location: string | null; body: Buffer };

/** One HTTP exchange with the connection pinned to `pinned` (no second DNS lookup). */
function exchange(url: URL, init: NetRequest, pinned: ResolvedAddress, maxBytes: number, signal: AbortSignal): Promise<RawResponse> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: init.method ?? 'GET', headers: init.headers, lookup, signal, agent: false }, (res) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const declared = Number(res.headers['content-length'] ?? '0');
      if (declared > maxBytes) {
        res.destroy();
        return reject(new RuntimeError('net/too-large', `net.fetch: response is ${declared} bytes, the limit is ${maxBytes}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) {
          res.destroy();
          reject(new RuntimeError('net/too-large', `net.fetch: response exceeds the limit of ${maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers, location: res.headers.location ?? null, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

export async function netFetch(rawUrl: string, init: NetRequest, hosts: string[], opts: NetOptions = {}): Promise<NetResponse> {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const allow = parseAllowRanges(opts.allowRanges ?? []);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new RuntimeError('capability/invalid-args', `net.fetch: not a URL: ${rawUrl}`);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let request = init;
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
      const pinned = await checkedAddress(url, opts, allow);
      const res = await exchange(url, request, pinned, maxBytes, controller.signal);
      if (res.status >= 300 && res.status < 400 && res.location) {
        if (hop >= maxRedirects) throw new RuntimeError('net/failed', `net.fetch: more than ${maxRedirects} redirects`);
        const next = new URL(res.location, url);
        // as fetch does: credentials never follow a redirect to another origin
        if (next.origin !== url.origin && request.headers) {
          request = { ...request, headers: Object.fromEntries(Object.entries(request.headers).filter(([k]) => !/^(authorization|cookie|proxy-authorization)$/i.test(k))) };
        }
        url = next;
        // as fetch does: 303 (and 301/302 after a POST) continue as a GET without a body
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && (request.method ?? 'GET').toUpperCase() === 'POST')) {
          request = { ...request, method: 'GET', body: undefined };
        }
        continue;
      }
      return { status: res.status, url: url.toString(), headers: res.headers, body: res.body.toString('utf8') };
    }
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    if (controller.signal.aborted) throw new RuntimeError('net/timeout', `net.fetch: no complete answer within ${timeoutMs} ms`);
    throw new RuntimeError('net/failed', `net.fetch: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
