// A hash router: #/keys, #/requests/req_123 … The dashboard is one static page, so the server
// needs no fallback routes.
function parse(): string[] {
  return location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

export const route = $state({ parts: parse() });

window.addEventListener('hashchange', () => {
  route.parts = parse();
});

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function navigate(...parts: string[]) {
  location.hash = href(...parts);
}
