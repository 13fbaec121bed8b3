// What the per-address limits count as one client: sign-ups per address (routes/signup.ts) and the
// login throttle's per-address and per-(email, address) counters (domain/auth/login-throttle.ts).
//
// An IPv4 address is one client. An IPv6 address is not: an ordinary host or home connection is
// given a whole /64 (often a /56), and picks a new address in it as it pleases, so counted by full
// address each limit was per address *tried* — one host opened unlimited accounts and tried a
// password from as many addresses as it liked. IPv6 clients are counted by their
// /64, the smallest prefix a network assigns to one link; IPv4-mapped IPv6 (::ffff:a.b.c.d, what a
// dual-stack socket reports for an IPv4 peer) by the IPv4 address.
import ipaddr from 'ipaddr.js';

export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip); // an IPv4-mapped IPv6 address comes back as IPv4
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`);
  return `${prefix.toString()}/64`;
}
