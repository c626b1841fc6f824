import { describe, expect, it } from 'vitest';
import { requestWithHostUrl } from './request-host';

const h = (o: Record<string, string>) => new Headers(o);

describe('the URL the browser used', () => {
  it('takes the Host (and forwarded host/proto) over the bind host', () => {
    expect(requestWithHostUrl('http://localhost:3000/api/auth/callback/oidc?code=1', h({ host: '127.0.0.1:3000' }), {})).toBe(
      'http://127.0.0.1:3000/api/auth/callback/oidc?code=1',
    );
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'internal', 'x-forwarded-host': 'yard.example', 'x-forwarded-proto': 'https' }), {})).toBe(
      'https://yard.example/x',
    );
  });
  it('takes the origin of AUTH_URL when it is set, whatever the Host says', () => {
    expect(requestWithHostUrl('http://localhost:3000/x?a=1', h({ host: 'evil.example' }), { AUTH_URL: 'https://yard.example/api/auth' })).toBe('https://yard.example/x?a=1');
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'localhost:3000' }), { NEXTAUTH_URL: 'http://127.0.0.1:3000' })).toBe('http://127.0.0.1:3000/x');
  });
  it('leaves it alone when the host is not a host', () => {
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'evil.example/path' }), {})).toBe('http://localhost:3000/x');
    expect(requestWithHostUrl('http://localhost:3000/x', h({ host: 'a.example', 'x-forwarded-proto': 'javascript' }), {})).toBe('http://localhost:3000/x');
  });
});
