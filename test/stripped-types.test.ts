// The service loads our modules from copies stripped of their types at install time (#13,
// src/stripped-types.mjs): a copy is used only for the exact content it was made from, and the
// install makes one for every file under src/.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRIPPED_DIR, strippedName } from '../src/stripped-types.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HOOK = join(ROOT, 'src', 'stripped-types.mjs');

/** What a module exports as `where`, imported by a fresh node with the loader. */
function importedWhere(file: string): string {
  return execFileSync(process.execPath, ['--import', pathToFileURL(HOOK).href, '--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(m.where);`], { encoding: 'utf8' }).trim();
}

describe('TypeScript stripped at install time (src/stripped-types.mjs)', () => {
  it('loads a module from the copy made for its exact content, and strips it as usual once it changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-stripped-'));
    const file = join(dir, 'module.ts');
    const source = `export const where: string = 'source ${process.pid} ${Date.now()}';\n`;
    writeFileSync(file, source);
    // A copy that differs from what stripping gives, to see which one ran.
    const copy = join(STRIPPED_DIR, strippedName(source));
    writeFileSync(copy, "export const where = 'the copy';\n");
    try {
      assert.equal(importedWhere(file), 'the copy');
      writeFileSync(file, source.replace('source', 'edited'));
      assert.match(importedWhere(file), /^edited /, 'a changed file has no copy: Node strips it');
    } finally {
      rmSync(copy, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the install step makes a copy of every module under src/, exactly what Node\'s stripping gives', () => {
    execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(ROOT, 'scripts', 'build-stripped-cache.mjs')], { encoding: 'utf8' });
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'));
    assert.ok(files.length > 100, `${files.length} modules`);
    const pairs = files.map((entry) => {
      const source = join(entry.parentPath, entry.name);
      const copy = join(STRIPPED_DIR, strippedName(readFileSync(source, 'utf8')));
      assert.ok(existsSync(copy), `${entry.name} has its copy`);
      return [source, copy];
    });
    // Node's stripping, run where its "experimental" warning can be turned off (this process would print it).
    const differing = execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', `
      import { stripTypeScriptTypes } from 'node:module';
      import { readFileSync } from 'node:fs';
      const pairs = JSON.parse(process.argv[1]);
      console.log(JSON.stringify(pairs.filter(([source, copy]) => readFileSync(copy, 'utf8') !== stripTypeScriptTypes(readFileSync(source, 'utf8'), { mode: 'strip' })).map(([source]) => source)));
    `, JSON.stringify(pairs)], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(differing), [], 'every copy is the stripped source');
  });
});
