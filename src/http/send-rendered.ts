// Sends a pre-rendered JSON body (domain/requests/response-bodies.ts) as its three chunks in one
// writev, without concatenating them (the per-response copy of a 131 KiB body was most of the
// hot path's garbage). Fastify's reply.send takes one buffer or a stream, and a stream of three
// chunks costs more than the copy it saves; so the reply is hijacked and written here.
//
// What hijacking skips, and why that is safe here: onSend hooks (the one that stores an idempotent
// call's answer is called here instead, rememberAnswer) and the response serializer (the body is
// already the schema's JSON). onResponse hooks, the request's log
// line and the metrics still run: Fastify attaches them to the raw response's 'finish' at routing.
import type { FastifyReply } from 'fastify';
import type { RenderedJson } from '../domain/requests/response-bodies.ts';
import { rememberAnswer } from './plugins/idempotency.ts';

export async function sendRendered(reply: FastifyReply, rendered: RenderedJson, status = 200): Promise<void> {
  await rememberAnswer(reply, status, () => Buffer.concat(rendered.chunks).toString('utf8'));
  reply.hijack();
  const res = reply.raw;
  // Headers set through reply.header() (request id, rate limit) live on the reply, not yet on res.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', rendered.length);
  res.statusCode = status;
  // Corked, the header block and the three chunks leave in one writev system call.
  res.cork();
  const [head, data, tail] = rendered.chunks;
  res.write(head);
  res.write(data);
  res.end(tail);
  res.uncork();
}
