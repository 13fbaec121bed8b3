// The comparison point for the hot-path benchmark: a bare Fastify route answering the same JSON body.
// BARE_BODY=buffer sends pre-encoded bytes (the cheapest way Fastify can send a body; the service
// also copies a pre-encoded body), BARE_BODY=string sends the JSON text as most handlers would.
// The same process is the comparison point for accepting webhook requests (…/accepted: 202 with
// the body, no work) and for the WebSub callback's refusals: /websub/youtube/:channelId reads an
// Atom body with the service's 16 KiB limit (413 past it, while reading), /websub-off/youtube/:channelId
// answers 404 before reading, as the service does with push off.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bytes = readFileSync(process.argv[2]!);
const body = process.env.BARE_BODY === 'string' ? bytes.toString('utf8') : bytes;
const app = Fastify();
app.post('/api/youtube/shorts', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send(body),
);
app.post('/api/youtube/shorts/accepted', async (_request, reply) =>
  reply.code(202).header('content-type', 'application/json; charset=utf-8').send(body),
);
// What another account's GET /accounts is compared with while the callback is flooded: a small JSON answer.
app.get('/accounts', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send('{"id":"bare","credits":{"balance":1}}'),
);
const NOTIFICATION_BODY_LIMIT = 16 * 1024;
app.addContentTypeParser(
  'application/atom+xml',
  { parseAs: 'buffer', bodyLimit: NOTIFICATION_BODY_LIMIT },
  (_r, b, done) => done(null, b),
);
app.post('/websub/youtube/:channelId', { bodyLimit: NOTIFICATION_BODY_LIMIT }, async (_request, reply) =>
  reply.code(202).send(),
);
app.post(
  '/websub-off/youtube/:channelId',
  {
    onRequest: async (_request, reply) => {
      await reply.code(404).send({ error: 'NOT_FOUND' });
    },
  },
  async (_request, reply) => reply.code(202).send(),
);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(address);
