// An HTTP agent for webhook deliveries that checks the address it actually connects to: the DNS
// answer is vetted inside the connection's own lookup, so a name that re-resolves to a private
// address between our check and the connect (DNS rebinding) is still refused. IP literals skip
// DNS, so they are vetted before connecting.
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { isForbiddenAddress, unbracket } from './address-policy.ts';

export class ForbiddenAddressError extends Error {
  code = 'ERR_FORBIDDEN_ADDRESS';
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return (callback as (e: Error | null, a: string, f: number) => void)(error, '', 0);
    const list = addresses as Array<{ address: string; family: number }>;
    const bad = list.find((a) => isForbiddenAddress(a.address));
    if (bad)
      return (callback as (e: Error | null, a: string, f: number) => void)(
        new ForbiddenAddressError(`${hostname} resolves to a forbidden address (${bad.address})`),
        '',
        0,
      );
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    (callback as (e: null, a: string, f: number) => void)(null, list[0]!.address, list[0]!.family);
  });
};

export function createWebhookAgent(options: { allowPrivate: boolean; timeoutMs: number }): Agent {
  return new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, 10_000),
    keepAliveTimeout: 10_000,
    connections: 128,
    connect: options.allowPrivate ? {} : { lookup: guardedLookup },
  });
}

export function assertLiteralAddressAllowed(url: URL, allowPrivate: boolean): void {
  const host = unbracket(url.hostname);
  if (!allowPrivate && isIP(host) && isForbiddenAddress(host))
    throw new ForbiddenAddressError(`${host} is a forbidden address`);
}
