import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitMultipartParts, multipartBoundary, partCounter } from './multipart-part-limit';

const form = (parts: number, boundary = 'XyZ') =>
  Buffer.from(Array.from({ length: parts }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') + `--${boundary}--\r\n`);

describe('multipartBoundary', () => {
  it('reads quoted and bare boundaries, and nothing from other types', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----WebKitFormBoundaryabc')).toBe('----WebKitFormBoundaryabc');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});

describe('partCounter', () => {
  it('counts the parts of a body however it is cut into chunks', () => {
    const body = form(500);
    for (const size of [1, 3, 7, 64, 1000, body.length]) {
      const count = partCounter('XyZ');
      let parts = 0;
      for (let at = 0; at < body.length; at += size) parts = count(body.subarray(at, at + size));
      expect(parts, `chunks of ${size}`).toBe(500);
    }
  });
});

describe('limitMultipartParts', () => {
  function fakeRequest(contentType: string) {
    const pushed: Buffer[] = [];
    const req = Object.assign(new EventEmitter(), { headers: { 'content-type': contentType }, push: (c: Buffer) => (pushed.push(c), true) });
    return { req: req as unknown as http.IncomingMessage, pushed };
  }

  it('lets a form within the bound through whole', () => {
    const { req, pushed } = fakeRequest('multipart/form-data; boundary=XyZ');
    let refused = 0;
    limitMultipartParts(req, 10, () => refused++);
    const body = form(10);
    for (let at = 0; at < body.length; at += 16) req.push(body.subarray(at, at + 16));
    expect(refused).toBe(0);
    expect(Buffer.concat(pushed).equals(body)).toBe(true);
  });

  it('stops a flood of tiny parts at the bound: the parser never sees the rest', () => {
    const { req, pushed } = fakeRequest('multipart/form-data; boundary=XyZ');
    let refused = 0;
    limitMultipartParts(req, 100, () => refused++);
    const body = form(300_000);
    for (let at = 0; at < body.length; at += 64 * 1024) req.push(body.subarray(at, at + 64 * 1024));
    expect(refused).toBe(1);
    // at most one chunk's worth of parts past the bound got through
    expect(Buffer.concat(pushed).length).toBeLessThan(64 * 1024);
  });

  it('leaves a body that is not multipart alone', () => {
    const { req, pushed } = fakeRequest('text/plain');
    limitMultipartParts(req, 0, () => {
      throw new Error('not multipart');
    });
    req.push(Buffer.from('--XyZ--XyZ'));
    expect(pushed).toHaveLength(1);
  });
});
