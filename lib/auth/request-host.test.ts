import { describe, expect, it } from 'vitest';
import { requestWithHostUrl } from './request-host';

const h = (o: Record<string, string>) => new Headers(o);

describe('the URL the browser used', () => {
  it('takes the Host (and forwarded host/proto) over the bind host', () => {
    expect(requestWithHostUrl('http://localhost:3000/api/auth/callback/oidc?code=1', h({ host: '127.0.0.1:3000' }), {})).toBe('http://127.0.0.1:3000/api/auth/callback/oidc?code=1');
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'internal', 'x-forwarded-host': 'yard.example', 'x-forwarded-proto': 'https' }), {})).toBe('https://yard.example/x');
  });
  it('leaves it alone when AUTH_URL is set or the host is not a host', () => {
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: '127.0.0.1:3000' }), { AUTH_URL: 'https://yard.example' })).toBe('http://localhost:3000/x');
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'evil.example/path' }), {})).toBe('http://localhost:3000/x');
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'a.example', 'x-forwarded-proto': 'javascript' }), {})).toBe('http://localhost:3000/x');
  });
});
