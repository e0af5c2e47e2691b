import { describe, expect, it } from 'vitest';
import { clientKey, forwardedClient } from '../../generator/edge/client-address.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';

describe('forwardedClient', () => {
  it('takes the entry the nearest trusted proxy appended, never the client-written ones before it', () => {
    expect(forwardedClient('203.0.113.9', 1)).toBe('203.0.113.9');
    expect(forwardedClient('spoofed, 198.51.100.4', 1)).toBe('198.51.100.4');
    expect(forwardedClient('spoofed, 198.51.100.4, 10.0.0.2', 2)).toBe('198.51.100.4');
    expect(forwardedClient(' a ,b ,  c ', 1)).toBe('c');
  });

  it('gives nothing when there is no header, no trusted proxy, or fewer entries than proxies', () => {
    expect(forwardedClient(null, 1)).toBeUndefined();
    expect(forwardedClient('203.0.113.9', 0)).toBeUndefined();
    expect(forwardedClient('203.0.113.9', 2)).toBeUndefined();
    expect(forwardedClient('a, ', 1)).toBeUndefined();
  });
});

describe('clientKey', () => {
  it('keeps an IPv4 address as it is, without a port', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.1:51000')).toBe('192.0.2.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, in either spelling', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('::FFFF:c000:0201')).toBe('192.0.2.1');
    expect(clientKey('[::ffff:192.0.2.1]:443')).toBe('192.0.2.1');
  });

  it('keys an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:1:2:3',
      '[2001:db8:1:2::9]:8443',
      '2001:db8:1:2:0:0:0:0',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::5'),
    ]) {
      expect(clientKey(address), address).toBe(key);
    }
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps anything that is not an address as it came, lowercased', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('2001:db8::1::2')).toBe('2001:db8::1::2');
  });

  it('gives one budget to a client that rotates addresses inside its /64', () => {
    const limiter = createMemoryLimiter({ limit: 100, windowMs: 60_000 });
    const results = Array.from({ length: 150 }, (_, i) => limiter.hit(clientKey(`2001:db8:aa:bb::${(i + 1).toString(16)}`), i).allowed);
    expect(results.filter(Boolean)).toHaveLength(100);
  });
});
