// Which network addresses a webhook may reach. Private, loopback, link-local (incl. cloud metadata
// 169.254.169.254), carrier-grade NAT, multicast, reserved, unspecified and documentation ranges are
// refused, and IPv4-mapped / NAT64 / 6to4 IPv6 forms are judged by the IPv4 address inside them.
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** A URL's hostname without the brackets of an IPv6 literal ([::1] → ::1); other names unchanged. */
export function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

/**
 * Parsed with ipaddr.js, so every spelling of an address (compressed, dotted-quad tail, leading
 * zeros) is judged the same. IPv4-compatible (::a.b.c.d, deprecated) and SIIT (::ffff:0:a.b.c.d)
 * forms are refused outright; IPv4-mapped and NAT64 forms are judged by the IPv4 address inside.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = unbracket(address).replace(/%.*$/, '');
  if (!isIP(bare) || !ipaddr.isValid(bare)) return true; // not an IP address at all: refuse rather than guess
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return blocked.check(parsed.toString(), 'ipv4');
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  // ::/96 (unspecified, loopback and IPv4-compatible) and ::ffff:0:0/96 (SIIT).
  if (parts.slice(0, 6).every((p) => p === 0)) return true;
  if (parts.slice(0, 4).every((p) => p === 0) && parts[4] === 0xffff && parts[5] === 0) return true;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145') {
    const v4 = ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString();
    return blocked.check(v4, 'ipv4') || v4 === '0.0.0.0';
  }
  // 6to4 (2002:V4ADDR::/48): on a host with 6to4 routing it reaches the IPv4 address in bits 16-47 (noted by review).
  if (range === '6to4') {
    const v4 = ipaddr.fromByteArray(v6.toByteArray().slice(2, 6)).toString();
    return blocked.check(v4, 'ipv4') || v4 === '0.0.0.0';
  }
  return blocked.check(v6.toNormalizedString(), 'ipv6');
}
