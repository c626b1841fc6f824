import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { pinClientAddress } from './pin-client-address';
import { clientIp } from '../principal';

const request = (xff: string | undefined, socket = '203.0.113.9') =>
  ({ headers: xff === undefined ? {} : { 'x-forwarded-for': xff }, socket: { remoteAddress: socket } }) as unknown as http.IncomingMessage;
const seenAs = (req: http.IncomingMessage, trusted: number) => clientIp(new Request('http://x/', { headers: req.headers as Record<string, string> }), trusted);

describe('pinClientAddress', () => {
  it('without a trusted proxy, a client cannot name its own address', () => {
    const req = request('198.51.100.1, 198.51.100.2');
    pinClientAddress(req, 0);
    expect(req.headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(seenAs(req, 0)).toBe('203.0.113.9');
  });

  it('without the header, the socket address is used', () => {
    const req = request(undefined);
    pinClientAddress(req, 0);
    expect(seenAs(req, 0)).toBe('203.0.113.9');
  });

  it('behind one trusted proxy, the address it appended is the client', () => {
    const req = request('6.6.6.6, 198.51.100.7', '10.0.0.2');
    pinClientAddress(req, 1);
    expect(seenAs(req, 1)).toBe('198.51.100.7');
  });
});
