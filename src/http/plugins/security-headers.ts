// Browser-facing hardening (docs/spec.md, security commitments): security headers on every response through @fastify/helmet — a
// Content-Security-Policy without inline scripts (the dashboard and /docs load only their own
// files), frame-ancestors 'none' and X-Frame-Options DENY (the dashboard keeps a session token),
// nosniff and Referrer-Policy no-referrer — and CORS, off unless CORS_ORIGINS lists origins.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import { parseList } from '../../config.ts';

export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    // Swagger UI and Svelte set style attributes; styles cannot run code.
    styleSrc: ["'self'", "'unsafe-inline'"],
    // The Try it gallery shows thumbnails, avatars and banners where the platform serves them (the
    // fake platform answers with the same hosts); nothing else from outside is loaded.
    imgSrc: ["'self'", 'data:', 'https://i.ytimg.com', 'https://yt3.ggpht.com', 'https://yt3.googleusercontent.com'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

export const securityHeaders = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Served over plain HTTP on localhost too; HSTS belongs to the TLS terminator in front.
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  const origins = parseList(app.services.config.CORS_ORIGINS);
  if (origins.length > 0) {
    await app.register(cors, {
      origin: origins,
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
      maxAge: 600,
    });
  }
});
