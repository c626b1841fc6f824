import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ACTION_BODY_BYTES, actionBodyVerdict, uploadActionBodyBytes } from './action-body-limit';

const post = (url: string, headers: Record<string, string>) => ({ method: 'POST', url, headers: { 'next-action': 'abc', ...headers } }) as unknown as http.IncomingMessage;
const SESSION = 'authjs.session-token=71312962-9167-43ef-b42d-1be1a0c145a0';

describe('actionBodyVerdict', () => {
  it('holds an action on any page but /publish to 1 MiB, from Content-Length alone', () => {
    expect(actionBodyVerdict(post('/', { 'content-length': String(ACTION_BODY_BYTES) }))).toBeNull();
    expect(actionBodyVerdict(post('/skills/a/b', { 'content-length': String(50 * 1024 * 1024) }))).toMatchObject({ status: 413, code: 'input/too-large' });
    expect(actionBodyVerdict(post('/', { 'transfer-encoding': 'chunked' }))).toMatchObject({ status: 411 });
  });

  it('lets a signed-in upload to /publish up to the package limit, and no larger one without a session', () => {
    const big = String(10 * 1024 * 1024);
    expect(actionBodyVerdict(post('/publish', { 'content-length': big, cookie: SESSION }))).toBeNull();
    expect(actionBodyVerdict(post('/publish', { 'content-length': big }))).toMatchObject({ status: 401 });
    expect(actionBodyVerdict(post('/publish', { 'content-length': String(uploadActionBodyBytes() + 1), cookie: SESSION }))).toMatchObject({ status: 413 });
  });

  it('leaves everything that is not an action alone', () => {
    expect(actionBodyVerdict({ method: 'POST', url: '/api/v1/skills', headers: { 'content-length': '999999999' } } as unknown as http.IncomingMessage)).toBeNull();
    expect(actionBodyVerdict({ method: 'GET', url: '/', headers: { 'next-action': 'x' } } as unknown as http.IncomingMessage)).toBeNull();
  });
});
