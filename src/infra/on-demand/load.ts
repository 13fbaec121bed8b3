// Modules the bundle loads on their first use instead of at start (ON_DEMAND in
// scripts/build-bundle.ts): a bundled dependency imports them at its top, yet the service never
// calls them. The bundle gives that dependency a module of this folder in their place, which has the
// same exports and loads the real module, from where the dependency would have loaded it, when one
// of them is first used. Its text, and what its evaluation builds, stay out of the process until then.
import { createRequire } from 'node:module';

/**
 * `module` as `importer` (a package) would resolve it — it is that package's dependency, not ours —
 * loaded at the first call of the returned function, which gives the same module every time.
 */
export function onFirstUse<T>(importer: string, module: string): () => T {
  let loaded: T | undefined;
  return () => {
    // The importer's entry as an import finds it (what the bundle was built from), then require from there.
    loaded ??= createRequire(import.meta.resolve(importer))(module) as T;
    return loaded;
  };
}
