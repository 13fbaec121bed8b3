// The comparison point for the hot-path benchmark: a bare Fastify route answering the same JSON body.
// BARE_BODY=buffer sends pre-encoded bytes (the cheapest way Fastify can send a body; the service
// also copies a pre-encoded body), BARE_BODY=string sends the JSON text as most handlers would.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bytes = readFileSync(process.argv[2]!);
const body = process.env.BARE_BODY === 'string' ? bytes.toString('utf8') : bytes;
const app = Fastify();
app.post('/api/youtube/shorts', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send(body),
);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(address);
