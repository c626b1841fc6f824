import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket';

describe('addressBucket', () => {
  it('keeps IPv4 addresses, also when IPv4-mapped', () => {
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts every address of an IPv6 /64 as one', () => {
    expect(addressBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
