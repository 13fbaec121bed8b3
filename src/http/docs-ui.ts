// The API reference at /docs: Swagger UI, served from our own origin (no CDN: the CSP allows only
// 'self' scripts, and it works offline), with the product's header instead of the stock one — the
// product name, a link back to the dashboard and links to the guides rendered from info.description.
// Kept over Scalar: Scalar's page boots from an inline script (refused by our CSP) and fetches fonts
// from its CDN by default; see docs/api-reference.md.
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { GUIDES } from './openapi-guides.ts';
import { PRODUCT_NAME } from './openapi.ts';

// Runs in the browser (a file under /docs/static/theme/, so the CSP's script-src 'self' allows it).
const headerScript = (guides: readonly string[]) => `(() => {
  // Swagger UI's page has no viewport meta: without it a phone lays it out 980 px wide, unreadable.
  if (!document.querySelector('meta[name="viewport"]')) {
    const viewport = document.createElement('meta');
    viewport.name = 'viewport';
    viewport.content = 'width=device-width, initial-scale=1';
    document.head.append(viewport);
  }
  ${SESSION_READER}
  const product = ${JSON.stringify(PRODUCT_NAME)};
  const guides = ${JSON.stringify(guides)};
  const slug = (text) => 'guide-' + text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  function header() {
    const bar = document.createElement('header');
    bar.className = 'cs-header';
    const name = document.createElement('a');
    name.className = 'cs-product';
    name.href = '/dashboard/';
    name.textContent = product;
    const title = document.createElement('span');
    title.className = 'cs-title';
    title.textContent = 'API reference';
    const nav = document.createElement('nav');
    nav.setAttribute('aria-label', 'Guides');
    for (const guide of guides) {
      const link = document.createElement('a');
      link.href = '#' + slug(guide);
      link.textContent = guide;
      nav.appendChild(link);
    }
    const back = document.createElement('a');
    back.className = 'cs-dashboard';
    back.href = '/dashboard/';
    back.textContent = 'Dashboard';
    bar.append(name, title, nav, back);
    if (readSession()) {
      const signedIn = document.createElement('p');
      signedIn.className = 'cs-session';
      signedIn.textContent = 'Try it out uses your dashboard session.';
      bar.append(signedIn);
    }
    return bar;
  }
  // Guide headings get ids, so the header's links (and shared links) reach them.
  function anchorGuides() {
    const headings = document.querySelectorAll('.information-container .markdown h2, .information-container .renderedMarkdown h2');
    for (const h of headings) if (!h.id) h.id = slug(h.textContent || '');
    // The guides' tables and code blocks scroll sideways on a phone: reachable by keyboard (axe:
    // scrollable-region-focusable, seen at phone width).
    for (const block of document.querySelectorAll('.information-container table, .information-container pre')) block.setAttribute('tabindex', '0');
    if (headings.length && location.hash.startsWith('#guide-')) document.getElementById(location.hash.slice(1))?.scrollIntoView();
    return headings.length > 0;
  }
  document.addEventListener('DOMContentLoaded', () => {
    document.body.prepend(header());
    // Swagger UI's root is the page's main content: a landmark for screen readers (axe: region).
    document.getElementById('swagger-ui')?.setAttribute('role', 'main');
    const observer = new MutationObserver(() => { if (anchorGuides()) observer.disconnect(); });
    observer.observe(document.body, { childList: true, subtree: true });
  });
})();
`;

/**
 * Reads the dashboard's session token when this tab holds a live one: the dashboard keeps it in
 * sessionStorage, which a same-origin page in the same tab shares. Browser JavaScript, put into the
 * page's scripts as source.
 */
const SESSION_READER = `function readSession() {
  try {
    const session = JSON.parse(sessionStorage.getItem('channel-shorts.session') || 'null');
    return session && typeof session.token === 'string' && Date.parse(session.expiresAt) > Date.now() ? session.token : null;
  } catch {
    return null;
  }
}`;

/** Try it out is pre-authorised for a signed-in dashboard user: their session, unless a key was entered. */
const requestInterceptor = new Function(
  'request',
  `${SESSION_READER}
  const token = readSession();
  if (token && !request.headers.Authorization && !request.headers.authorization) request.headers.Authorization = 'Bearer ' + token;
  return request;`,
) as NonNullable<FastifySwaggerUiOptions['uiConfig']>['requestInterceptor'];

const theme = `
.swagger-ui .topbar { display: none; }
.cs-header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.25rem; padding: 0.75rem 1.5rem; background: #1f2937; color: #f9fafb; font-family: system-ui, sans-serif; }
.cs-header a { color: #f9fafb; text-decoration: none; }
.cs-header a:hover, .cs-header a:focus-visible { text-decoration: underline; }
.cs-product { font-weight: 700; font-size: 1.25rem; }
.cs-title { color: #d1d5db; }
.cs-header nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; flex: 1; }
.cs-dashboard { border: 1px solid #9ca3af; border-radius: 6px; padding: 0.25rem 0.75rem; }
.cs-session { flex-basis: 100%; margin: 0; color: #d1d5db; font-size: 0.875rem; }
/* A phone: the page's own width, operations' summaries wrapping instead of overflowing. */
@media (max-width: 40rem) {
  .cs-header { padding: 0.6rem 0.75rem; }
  .swagger-ui .wrapper { padding: 0 0.5rem; }
  .swagger-ui .info { margin: 1rem 0; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; }
  .swagger-ui .opblock-tag { font-size: 1.1rem; }
}
/* Swagger UI's version badges and spec link, darkened to 4.5:1 contrast (WCAG AA) */
.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background-color: #3f6212; }
.swagger-ui .info a { color: #1d5fb4; }
.swagger-ui .information-container .markdown h2, .swagger-ui .information-container .renderedMarkdown h2 { margin-top: 2rem; border-top: 1px solid #e5e7eb; padding-top: 1rem; }
.swagger-ui .information-container table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; }
.swagger-ui .information-container pre { max-width: 100%; overflow-x: auto; }
.swagger-ui .opblock-description-wrapper pre { max-width: 100%; overflow-x: auto; }
.swagger-ui .information-container td, .swagger-ui .information-container th { border: 1px solid #e5e7eb; padding: 0.25rem 0.5rem; text-align: left; }
`;

export function docsUiOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    theme: {
      title: `${PRODUCT_NAME} API reference`,
      css: [{ filename: 'channel-shorts.css', content: theme }],
      js: [{ filename: 'channel-shorts.js', content: headerScript(GUIDES.map((g) => g.title)) }],
    },
    uiConfig: {
      deepLinking: true,
      displayRequestDuration: true,
      persistAuthorization: true,
      defaultModelsExpandDepth: 0,
      tryItOutEnabled: false,
      // Serialised as its source into the page's initializer script.
      requestInterceptor,
    },
  };
}
