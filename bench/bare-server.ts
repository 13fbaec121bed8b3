// The comparison point for the hot-path benchmark: a bare Fastify route answering the same JSON body.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// Pre-encoded, the cheapest way Fastify can send a body (the service copies a pre-encoded body too).
const body = readFileSync(process.argv[2]!);
const app = Fastify();
app.post('/api/youtube/shorts', async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(address);
