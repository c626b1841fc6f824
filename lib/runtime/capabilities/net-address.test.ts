import { describe, expect, it } from 'vitest';
import { blockedReason, embeddedIpv4, parseAllowRanges } from './net-address';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'this-network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique local (private)'],
    ['fc00::1', 'unique local (private)'],
    ['ff02::1', 'multicast'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata)'],
    ['2002:0a00:0001::1', 'private'],
    ['::127.0.0.1', 'loopback'],
  ])('refuses IPv4 inside IPv6: %s', (address, reason) => {
    expect(blockedReason(address)).toContain(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(blockedReason(address)).toBeNull();
    },
  );

  it('lets an operator allow a private range, and only that range', () => {
    const allow = parseAllowRanges(['10.0.0.0/8', 'fd12::/16', '127.0.0.2']);
    expect(blockedReason('10.9.8.7', allow)).toBeNull();
    expect(blockedReason('::ffff:10.9.8.7', allow)).toBeNull();
    expect(blockedReason('fd12::5', allow)).toBeNull();
    expect(blockedReason('127.0.0.2', allow)).toBeNull();
    expect(blockedReason('127.0.0.1', allow)).toBe('loopback');
    expect(blockedReason('192.168.0.1', allow)).toBe('private');
  });

  it('refuses malformed allowances with the setting name', () => {
    expect(() => parseAllowRanges(['10.0.0.0/33'])).toThrow(/SKILLYARD_NET_ALLOW/);
    expect(() => parseAllowRanges(['example.com'])).toThrow(/SKILLYARD_NET_ALLOW/);
    expect(parseAllowRanges([])).toBeNull();
  });

  it('finds the IPv4 address in mapped, NAT64 and 6to4 forms, and none in plain IPv6', () => {
    expect(embeddedIpv4('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIpv4('64:ff9b::102:304')).toBe('1.2.3.4');
    expect(embeddedIpv4('2002:102:304::')).toBe('1.2.3.4');
    expect(embeddedIpv4('2606:4700::1')).toBeNull();
    expect(embeddedIpv4('::1')).toBeNull();
  });
});
