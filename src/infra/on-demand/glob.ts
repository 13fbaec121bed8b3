// glob (with minimatch and path-scurry), loaded on first use (see load.ts). @fastify/static imports
// it to list a directory's files when it is registered with `wildcard: false`; the dashboard is served
// with the default wildcard route (src/app.ts), which never lists.
import { loadAsDependencyOf } from './load.ts';

interface Glob {
  glob(pattern: string | string[], options?: Record<string, unknown>): Promise<string[]>;
}

let globModule: Glob | undefined;

/** The one export of glob that @fastify/static imports, as it calls it. */
export function glob(pattern: string | string[], options?: Record<string, unknown>): Promise<string[]> {
  globModule ??= loadAsDependencyOf<Glob>('@fastify/static', 'glob');
  return globModule.glob(pattern, options);
}
