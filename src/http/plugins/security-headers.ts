// Browser-facing hardening (docs/spec.md, security commitments): security headers on every response computed once with
// helmet — a Content-Security-Policy without inline scripts (the dashboard and /docs load only their own
// files), frame-ancestors 'none' and X-Frame-Options DENY (the dashboard keeps a session token),
// nosniff and Referrer-Policy no-referrer — and CORS, off unless CORS_ORIGINS lists origins.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
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
    // The Try it gallery shows thumbnails, avatars and banners where the platform serves them; the
    // configured upstream's origin is added at start (securityHeaderValues), as a fake platform run
    // for an offline demo serves its own placeholders. Nothing else from outside is loaded.
    imgSrc: ["'self'", 'data:', 'https://i.ytimg.com', 'https://yt3.ggpht.com', 'https://yt3.googleusercontent.com'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

const HELMET_OPTIONS = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Served over plain HTTP on localhost too; HSTS belongs to the TLS terminator in front.
  strictTransportSecurity: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
} as const;

/**
 * helmet's headers, computed once. They depend on nothing in the request (no nonces, no directive
 * functions), and @fastify/helmet rebuilt the whole middleware (parsing the CSP directives) for
 * every request: 3-4 % of the hot path's CPU in the profile (bench/profile-hot.ts).
 */
export function securityHeaderValues(imageOrigins: string[] = []): Array<[string, string]> {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  const directives = CONTENT_SECURITY_POLICY.directives;
  const csp = {
    ...CONTENT_SECURITY_POLICY,
    directives: { ...directives, imgSrc: [...directives.imgSrc, ...imageOrigins] },
  };
  helmet({ ...HELMET_OPTIONS, contentSecurityPolicy: csp })(
    {} as IncomingMessage,
    collector as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return [...headers];
}

/** The InnerTube upstream's origin when it is not YouTube's (a fake platform that draws its own images). */
function upstreamImageOrigins(innertubeBaseUrl: string): string[] {
  const origin = URL.canParse(innertubeBaseUrl) ? new URL(innertubeBaseUrl).origin : '';
  return origin && origin !== 'https://www.youtube.com' ? [origin] : [];
}

export const securityHeaders = fp(async (app: FastifyInstance) => {
  const headers = securityHeaderValues(upstreamImageOrigins(app.services.config.YOUTUBE_INNERTUBE_BASE_URL));
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  const origins = parseList(app.services.config.CORS_ORIGINS);
  if (origins.length > 0) {
    await app.register(cors, {
      origin: origins,
      // Every method a route uses (PATCH of a watch and PUT of the alerts were refused).
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
      maxAge: 600,
    });
  }
});
