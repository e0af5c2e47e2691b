/**
 * Who a request comes from, for the rate limit (docs/api.md "Rate limit"), the same for every adapter: behind
 * trusted proxies the address the nearest one appended to X-Forwarded-For (the entries before it are the
 * client's own words), and one key per client: an IPv4 address, or the /64 an IPv6 host is given (a host
 * can use any address in it), an IPv4-mapped IPv6 address counting as its IPv4 address.
 */

/**
 * The client address behind `trustedHops` proxies: the entry that many places from the right of
 * X-Forwarded-For (each proxy appends the address it saw). Undefined when the header has fewer entries.
 */
export function forwardedClient(header: string | null | undefined, trustedHops: number): string | undefined {
  if (!header || trustedHops < 1) return undefined;
  const entries = header.split(',').map((entry) => entry.trim());
  const entry = entries[entries.length - trustedHops];
  return entry ? entry : undefined;
}

/** `[2001:db8::1]:443` -> `2001:db8::1`, `192.0.2.1:8080` -> `192.0.2.1`, `fe80::1%eth0` -> `fe80::1`. */
function stripDecoration(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address)) return address.slice(0, address.lastIndexOf(':'));
  return address.replace(/%.*$/, '');
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail as two groups), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((part) => part > 255)) return null;
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string) => (half === '' ? [] : half.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => Number.parseInt(group, 16));
}

/** The key a client is counted by: `192.0.2.1`, or `2001:db8:1:2::/64`. Anything else is kept as it came, lowercased. */
export function clientKey(address: string): string {
  const bare = stripDecoration(address.trim()).toLowerCase();
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  // ::ffff:a.b.c.d is the IPv4 client a.b.c.d, seen through a dual-stack socket.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
