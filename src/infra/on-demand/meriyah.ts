// meriyah, loaded on its first use (see load.ts). youtubei.js imports this JavaScript parser for the
// player scripts it deciphers stream URLs with, which the service never asks it to do (sessions are
// created with `retrieve_player: false`): ~250 KB of source and ~0.4 MiB of Unicode tables otherwise.
import { onFirstUse } from './load.ts';

const meriyah = onFirstUse<{ parseScript(source: string, options?: Record<string, unknown>): unknown }>(
  'youtubei.js',
  'meriyah',
);

/** The one export of meriyah that youtubei.js imports (utils/javascript/JsAnalyzer.js). */
export function parseScript(source: string, options?: Record<string, unknown>): unknown {
  return meriyah().parseScript(source, options);
}
