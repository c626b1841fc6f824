import { describe, expect, it } from 'vitest';
import { sessionTokenFrom } from './session-from-request';

describe('session cookie', () => {
  it('reads the next-auth session token, secure name first', () => {
    expect(sessionTokenFrom('a=1; authjs.session-token=71312962-9167-43ef-b42d-1be1a0c145a0')).toBe('71312962-9167-43ef-b42d-1be1a0c145a0');
    expect(sessionTokenFrom('__Secure-authjs.session-token=aaaaaaaaaaaaaaaaaaaa; authjs.session-token=bbbbbbbbbbbbbbbbbbbb')).toBe('aaaaaaaaaaaaaaaaaaaa');
  });
  it('ignores other cookies and malformed values', () => {
    expect(sessionTokenFrom(null)).toBeNull();
    expect(sessionTokenFrom('xauthjs.session-token=aaaaaaaaaaaaaaaaaaaa')).toBeNull();
    expect(sessionTokenFrom('authjs.session-token=short')).toBeNull();
    expect(sessionTokenFrom("authjs.session-token=aaaaaaaaaaaaaaaaaaaa'--")).toBeNull();
  });
});
