import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netFetch } from './net';

// Two servers on one port: 127.0.0.2 (the address the check approved) and 127.0.0.1 (where
// a second DNS answer would lead). Linux routes all of 127/8 to loopback.
let checked: http.Server;
let rebound: http.Server;
let port = 0;
beforeAll(async () => {
  checked = http.createServer((_req, res) => res.end('checked'));
  await new Promise<void>((r) => checked.listen(0, '127.0.0.2', r));
  port = (checked.address() as AddressInfo).port;
  rebound = http.createServer((_req, res) => res.end('rebound'));
  await new Promise<void>((r) => rebound.listen(port, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise((r) => checked.close(r));
  await new Promise((r) => rebound.close(r));
});

describe('netFetch against DNS rebinding', () => {
  it('connects to the address it checked, not to a later DNS answer', async () => {
    let lookups = 0;
    // first answer allowed by the operator; every later answer is loopback
    const resolve = async () => [{ address: lookups++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const res = await netFetch(`http://rebind.test:${port}/`, {}, ['rebind.test'], { allowRanges: ['127.0.0.2/32'], resolve });
    expect(res.body).toBe('checked');
    expect(lookups).toBe(1);
  });

  it('refuses a name when any of its answers is private', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(netFetch('http://mixed.test/', {}, ['*'], { resolve })).rejects.toMatchObject({
      code: 'net/host-not-allowed',
      message: 'net.fetch: mixed.test resolves to a private address; only public addresses are reachable (an operator can allow a range with SKILLYARD_NET_ALLOW)',
    });
  });

  it.each(['http://2130706433/', 'http://0x7f000001/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]/', 'http://localhost/'])('refuses the loopback spelling %s', async (url) => {
    await expect(netFetch(url, {}, ['*'])).rejects.toMatchObject({ code: 'net/host-not-allowed', message: expect.stringMatching(/loopback/) });
  });
});
