// A real HTTP proxy (the `proxy` package: forwarding and CONNECT tunnels, as Squid does), run as its
// own process by tests of the outbound proxy setting: `node support/proxy-server.ts`. It listens on
// loopback, port 0, prints `listening <port>`, then one line per request it proxies (`CONNECT
// host:port` or `GET http://…`). With PROXY_USER/PROXY_PASSWORD set, a request without those Basic
// credentials is refused (407) and printed as `refused …`.
import { createServer } from 'node:http';
import { createProxy } from 'proxy';

const user = process.env.PROXY_USER;
const password = process.env.PROXY_PASSWORD;
const expected = user ? `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}` : undefined;

const server = createProxy(createServer());
server.authenticate = (req) => {
  const ok = !expected || req.headers['proxy-authorization'] === expected;
  process.stdout.write(`${ok ? '' : 'refused '}${req.method} ${req.url}\n`);
  return ok;
};
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
