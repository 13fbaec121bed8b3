// Run by `npm ci` / `npm install` (prepare): strips the types of every TypeScript file under src/
// into node_modules/.cache, for src/stripped-types.mjs to load the service from (why there). Safe to
// run again: the copies of files that no longer exist are removed. Without them the service runs
// exactly the same, with Node stripping the types as it loads each file, so a failure only warns.
//
// JavaScript, like src/stripped-types.mjs, which it shares the copies' naming with.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRIPPED_DIR, strippedName } from '../src/stripped-types.mjs';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

try {
  mkdirSync(STRIPPED_DIR, { recursive: true });
  const wanted = new Set();
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const source = readFileSync(join(entry.parentPath, entry.name));
    const name = strippedName(source);
    wanted.add(name);
    writeFileSync(join(STRIPPED_DIR, name), stripTypeScriptTypes(source.toString('utf8'), { mode: 'strip' }));
  }
  for (const name of readdirSync(STRIPPED_DIR)) if (!wanted.has(name)) rmSync(join(STRIPPED_DIR, name));
  console.log(`TypeScript stripped ahead of time: ${wanted.size} files in ${STRIPPED_DIR}`);
} catch (error) {
  console.warn(`TypeScript not stripped ahead of time (the service strips it as it loads): ${error.message}`);
}
