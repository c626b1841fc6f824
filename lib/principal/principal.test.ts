import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS,
  accountKey,
  accountOf,
  anonymousKey,
  clientAddressOf,
  clientIp,
  isAnonymousKey,
  principalKey,
  rateKeyOf,
  requireScope,
  requireUser,
  tokenIdOf,
  userPrincipal,
  visitorIdOf,
  type Principal,
} from '.';

const session: Principal = { kind: 'user', userId: 'u1' };
const personalToken: Principal = { kind: 'token', userId: 'u1', tokenId: 't1', scopes: ['invoke'] };
const teamToken: Principal = { kind: 'token', userId: 'bot', tokenId: 't2', scopes: ['invoke'], teamId: 'team', chargeUserId: 'maker' };
const headers = (xff: string) => new Headers({ 'x-forwarded-for': xff });

describe('one principal', () => {
  it('a session and a personal token are their user; a team token acts as its bot and is charged to its maker', () => {
    expect(principalKey(session, '192.0.2.1')).toBe('user:u1');
    expect(principalKey(personalToken, '192.0.2.1')).toBe('user:u1');
    expect(principalKey(teamToken, '192.0.2.1')).toBe('user:bot');
    expect(accountKey(teamToken, '192.0.2.1')).toBe('user:maker');
    expect(accountOf(personalToken)).toBe('u1');
    expect(rateKeyOf(teamToken, null)).toEqual({ key: 'user:maker', authenticated: true });
    expect(tokenIdOf(teamToken)).toBe('t2');
    expect(tokenIdOf(session)).toBeNull();
  });

  it('anonymous callers are keyed by a hash of their address, never the address itself', () => {
    const key = principalKey(ANONYMOUS, '192.0.2.1');
    expect(key).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(key).not.toContain('192.0.2.1');
    expect(isAnonymousKey(key)).toBe(true);
    expect(isAnonymousKey('user:u1')).toBe(false);
    expect(accountKey(ANONYMOUS, '192.0.2.1')).toBe(key);
    expect(anonymousKey('192.0.2.2')).not.toBe(key);
    expect(anonymousKey(null)).toBe(anonymousKey('unknown'));
    expect(rateKeyOf(ANONYMOUS, '192.0.2.1')).toEqual({ key, authenticated: false });
  });

  it('a visitor id counts only once the visitor sent it back', () => {
    expect(visitorIdOf({ kind: 'anonymous', anonymousId: 'v1' })).toBe('v1');
    expect(visitorIdOf({ kind: 'anonymous', anonymousId: 'v1', fresh: true })).toBeNull();
    expect(visitorIdOf(ANONYMOUS)).toBeNull();
    expect(visitorIdOf(session)).toBeNull();
  });

  it('requireUser refuses visitors; requireScope refuses a token without the scope, never a session', () => {
    expect(requireUser(userPrincipal('u9'))).toBe('u9');
    expect(() => requireUser(userPrincipal(null))).toThrow(/Sign in/);
    expect(() => requireScope(personalToken, 'publish')).toThrow(/lacks the "publish" scope/);
    expect(() => requireScope(personalToken, 'invoke')).not.toThrow();
    expect(() => requireScope(session, 'publish')).not.toThrow();
  });

  it('the client address is the one the last trusted proxy wrote, an IPv6 client its /64', () => {
    expect(clientIp({ headers: headers('203.0.113.9, 198.51.100.1') }, 0)).toBe('198.51.100.1');
    expect(clientIp({ headers: headers('203.0.113.9, 198.51.100.1') }, 2)).toBe('203.0.113.9');
    expect(clientIp({ headers: headers('2001:db8:1:2:3:4:5:6') }, 0)).toBe('2001:db8:1:2::/64');
    expect(clientIp({ headers: new Headers() }, 0)).toBe('unknown');
    expect(clientAddressOf(new Headers())).toBeNull();
  });
});
