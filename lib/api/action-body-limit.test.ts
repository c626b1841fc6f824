import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ACTION_BODY_BYTES, actionBodyVerdict, isPagePath, needsSession, uploadActionBodyBytes } from './action-body-limit';

const post = (url: string, headers: Record<string, string>) => ({ method: 'POST', url, headers: { 'next-action': 'abc', ...headers } }) as unknown as http.IncomingMessage;
const SESSION = 'authjs.session-token=71312962-9167-43ef-b42d-1be1a0c145a0';

describe('actionBodyVerdict', () => {
  it('holds a post to any page but /publish to 1 MiB, from Content-Length alone', () => {
    expect(actionBodyVerdict(post('/', { 'content-length': String(ACTION_BODY_BYTES) }))).toBeNull();
    expect(actionBodyVerdict(post('/skills/a/b', { 'content-length': String(50 * 1024 * 1024) }))).toMatchObject({ status: 413, code: 'input/too-large' });
    expect(actionBodyVerdict(post('/', { 'transfer-encoding': 'chunked' }))).toMatchObject({ status: 411 });
    // a multipart POST without the Next-Action header is decoded by Next.js all the same
    const mpa = { method: 'POST', url: '/teams', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(20 * 1024 * 1024) } };
    expect(actionBodyVerdict(mpa as unknown as http.IncomingMessage)).toMatchObject({ status: 413 });
  });

  it('lets an upload to /publish up to the package limit; only a session may send more than 1 MiB (checked by the page guard)', () => {
    const big = String(10 * 1024 * 1024);
    expect(actionBodyVerdict(post('/publish', { 'content-length': big, cookie: SESSION }))).toBeNull();
    expect(needsSession(post('/publish', { 'content-length': big }))).toBe(true);
    expect(needsSession(post('/publish', { 'content-length': '1000' }))).toBe(false);
    expect(needsSession(post('/teams', { 'content-length': big }))).toBe(false);
    expect(actionBodyVerdict(post('/publish', { 'content-length': String(uploadActionBodyBytes() + 1), cookie: SESSION }))).toMatchObject({ status: 413 });
  });

  it('leaves the API, static files and other methods alone', () => {
    expect(actionBodyVerdict({ method: 'POST', url: '/api/v1/skills', headers: { 'content-length': '999999999' } } as unknown as http.IncomingMessage)).toBeNull();
    expect(actionBodyVerdict({ method: 'GET', url: '/', headers: { 'next-action': 'x' } } as unknown as http.IncomingMessage)).toBeNull();
    expect(isPagePath('/_next/static/chunks/a.js')).toBe(false);
    expect(isPagePath('/skills/a/b')).toBe(true);
  });
});
