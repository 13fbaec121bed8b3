// A real HTTP server on port 0 that records webhook deliveries and answers as a test scripts it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** The status this receiver answered with; undefined while it hangs (or never answered). */
  answered?: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (tests the delivery timeout). */
  hang?: boolean;
}

export async function startReceiver(script: (delivery: Delivery, index: number) => Reply = () => ({ status: 200 })) {
  const deliveries: Delivery[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery: Delivery = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      deliveries.push(delivery);
      const reply = script(delivery, deliveries.length - 1);
      for (const w of waiters.filter((w) => deliveries.length >= w.count)) w.resolve();
      if (reply.hang) return;
      res.writeHead(reply.status, reply.headers ?? {});
      res.end('ok');
      delivery.answered = reply.status;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    port,
    deliveries,
    /** Resolves once `count` deliveries arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs = 20_000): Promise<void> {
      if (deliveries.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} deliveries, got ${deliveries.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function until<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
