// meriyah, loaded on its first use (#13). youtubei.js imports this JavaScript parser for the player
// scripts it deciphers stream URLs with, which the service never asks it to do (sessions are created
// with `retrieve_player: false`); an import is evaluated when the library loads all the same: 244 KB
// of source and ~0.4 MiB of Unicode tables, kept for the life of the process (bench/reading.md).
// The bundle (scripts/build-bundle.ts, ON_DEMAND) gives youtubei.js this module in meriyah's place.
// Should the library ever call it, meriyah is loaded then, from where youtubei.js would load it.
import { createRequire } from 'node:module';

interface Meriyah {
  parseScript(source: string, options?: Record<string, unknown>): unknown;
}

let meriyah: Meriyah | undefined;

function load(): Meriyah {
  // Resolved from youtubei.js's own directory, as its import is (the package is its dependency, not ours).
  const fromYoutubei = createRequire(createRequire(import.meta.url).resolve('youtubei.js/package.json'));
  meriyah ??= fromYoutubei('meriyah') as Meriyah;
  return meriyah;
}

/** The one export of meriyah that youtubei.js imports (utils/javascript/JsAnalyzer.js). */
export function parseScript(source: string, options?: Record<string, unknown>): unknown {
  return (meriyah ?? load()).parseScript(source, options);
}
