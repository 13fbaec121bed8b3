// The bundle `npm start` and `npm run worker` run (scripts/build-bundle.ts): what it still loads
// from node_modules at run time, what it loads on demand, that it carries no TypeScript and is ASCII only. The processes themselves are
// tested running from it in crash-recovery.test.ts (embedded) and scale-out.test.ts (PostgreSQL).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { ENTRIES, EXTERNAL, ON_DEMAND, OUTPUT, openBundle } from '../scripts/build-bundle.ts';
import { parseScript } from '../src/infra/on-demand/meriyah.ts';
import { CronExpressionParser } from '../src/infra/on-demand/cron-parser.ts';
import { RRuleTemporal } from '../src/infra/on-demand/rrule-temporal.ts';

describe('the bundle (dist/)', () => {
  it('has one module per entry and imports only Node built-ins, its own chunks and the packages kept outside', async () => {
    const bundle = await openBundle();
    const { output } = await bundle.generate(OUTPUT);
    await bundle.close();
    const chunks = output.filter((o) => o.type === 'chunk');
    const names = new Set(chunks.map((c) => c.fileName));
    for (const entry of Object.keys(ENTRIES)) assert.ok(names.has(`${entry}.mjs`), `${entry}.mjs`);
    const builtins = new Set(builtinModules);
    const imported = new Set(chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]));
    const unexpected = [...imported].filter(
      (id) =>
        !names.has(id) &&
        !id.startsWith('node:') &&
        !builtins.has(id) &&
        !EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
    );
    assert.deepEqual(unexpected, []);
    assert.ok(imported.has('@electric-sql/pglite'), 'PGlite loads from its package, beside its WASM and data files');
    assert.ok(imported.has('koffi'), 'koffi loads from its package, which finds its native binary beside it');
    const bundled = chunks.flatMap((c) => Object.keys(c.modules));
    assert.deepEqual(
      bundled.filter((id) => /\/node_modules\/@fastify\/(static|send)\//.test(id)),
      [],
      '@fastify/static is the one copy swagger-ui loads, not bundled',
    );
    assert.ok(
      chunks.flatMap((c) => Object.keys(c.modules)).filter((id) => id.endsWith('.ts')).length > 100,
      'our TypeScript modules are inside',
    );
    assert.deepEqual(
      [...imported].filter((id) => id.endsWith('.ts')),
      [],
      'no TypeScript is loaded at run time',
    );
    // V8 keeps a module's text for the life of the process at two bytes per character if one of them is not Latin-1.
    const notAscii = chunks
      .map((c) => ({ chunk: c.fileName, at: [...c.code].findIndex((ch) => ch.charCodeAt(0) > 0x7f) }))
      .filter((c) => c.at >= 0);
    assert.deepEqual(notAscii, [], 'every chunk is ASCII');
  });

  it('holds a module loaded on demand in place of each ON_DEMAND import, and not the module itself', async () => {
    const bundle = await openBundle();
    const { output } = await bundle.generate(OUTPUT);
    await bundle.close();
    const modules = output.flatMap((o) => (o.type === 'chunk' ? Object.keys(o.modules) : []));
    for (const { module, importer, replacement } of ON_DEMAND) {
      assert.ok(
        modules.some((id) => id.includes(`/node_modules/${importer}/`)),
        `${importer} is bundled`,
      );
      assert.deepEqual(
        modules.filter((id) => id.includes(`/node_modules/${module}/`)),
        [],
        `${module} is not`,
      );
      assert.ok(!modules.some((id) => id.includes('/node_modules/luxon/')), 'nor luxon, which only cron-parser loads');
      assert.ok(
        modules.some((id) => id.endsWith(replacement)),
        `${replacement} is, in its place`,
      );
    }
  });

  it('the modules in their place load the real ones on first use and answer as they do', () => {
    const ast = parseScript('var answer = 6 * 7;', { ranges: true }) as {
      type: string;
      body: Array<{ type: string; range: number[] }>;
    };
    assert.equal(ast.type, 'Program');
    assert.deepEqual(
      ast.body.map((n) => [n.type, n.range]),
      [['VariableDeclaration', [0, 19]]],
    );
    // As pg-boss's timekeeper.js and rrule.js call them.
    const cron = CronExpressionParser.parse('*/15 * * * *', {
      tz: 'UTC',
      strict: false,
      currentDate: new Date('2026-11-26T10:07:00Z'),
    }) as { next(): { toISOString(): string } };
    assert.equal(cron.next().toISOString(), '2026-11-26T10:15:00.000Z');
    const rule = new RRuleTemporal({
      rruleString: 'DTSTART:20261126T100000Z\nRRULE:FREQ=DAILY;COUNT=3',
      tzid: 'UTC',
      strict: true,
    }) as unknown as { between(a: Date, b: Date): unknown[]; next(after: Date): unknown };
    assert.deepEqual(rule.between(new Date('2026-11-26T00:00:00Z'), new Date('2026-12-31T00:00:00Z')).map(String), [
      '2026-11-26T10:00:00+00:00[UTC]',
      '2026-11-27T10:00:00+00:00[UTC]',
      '2026-11-28T10:00:00+00:00[UTC]',
    ]);
    assert.equal(String(rule.next(new Date('2026-11-26T12:00:00Z'))), '2026-11-27T10:00:00+00:00[UTC]');
  });
});
