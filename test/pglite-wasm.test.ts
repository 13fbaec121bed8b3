// PGlite's module with compilation hints (src/infra/db/pglite-wasm.ts): V8 must still honour the hints
// (else the service falls back to Liftoff only), and the rewritten module must stay valid.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import {
  HUGE_FUNCTION_BYTES,
  TIERED,
  compilationHintsHonoured,
  withCompilationHints,
} from '../src/infra/db/pglite-wasm.ts';

const u32 = (bytes: Uint8Array, at: number): [number, number] => {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, at];
  }
};

/** The module's sections in order: id, and the name of custom sections. */
function sections(bytes: Uint8Array): Array<{ id: number; name?: string; payload: Uint8Array }> {
  const out: Array<{ id: number; name?: string; payload: Uint8Array }> = [];
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at]!;
    const [size, start] = u32(bytes, at + 1);
    let payload = bytes.subarray(start, start + size);
    let name: string | undefined;
    if (id === 0) {
      const [length, nameStart] = u32(bytes, start);
      name = Buffer.from(bytes.subarray(nameStart, nameStart + length)).toString();
      payload = bytes.subarray(nameStart + length, start + size);
    }
    out.push({ id, ...(name === undefined ? {} : { name }), payload });
    at = start + size;
  }
  return out;
}

/** (module (func (export "a")) (func (export "b") nop×6)): bodies of 2 and 8 bytes. */
const TWO_FUNCTIONS_EXPORTED = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x03, 0x02, 0x00, 0x00,
  0x07, 0x09, 0x02, 0x01, 0x61, 0x00, 0x00, 0x01, 0x62, 0x00, 0x01, 0x0a, 0x0d, 0x02, 0x02, 0x00, 0x0b, 0x08, 0x00,
  0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x0b,
]);

describe('PGlite WASM compilation hints', () => {
  it('are honoured by the pinned Node, so the module is optimised except its huge functions', () => {
    assert.equal(
      compilationHintsHonoured(),
      true,
      'this V8 ignores compilation hints: PGlite runs on Liftoff only (slower); see pglite-wasm.ts',
    );
    assert.equal(TIERED, true, 'the decision taken when the module loaded');
  });

  it('make V8 optimise the functions without a hint and keep the hinted ones on Liftoff', () => {
    // In a process that may ask V8 which tier a function runs on (natives syntax), with the flags
    // the module sets when it loads: function a (no hint) is optimised in the background after its
    // first call, function b (hinted Liftoff only) never is.
    const script = `
      const { withCompilationHints } = await import(${JSON.stringify(new URL('../src/infra/db/pglite-wasm.ts', import.meta.url).href)});
      const bytes = new Uint8Array(${JSON.stringify([...TWO_FUNCTIONS_EXPORTED])});
      const { exports } = new WebAssembly.Instance(new WebAssembly.Module(withCompilationHints(bytes, 4).bytes));
      exports.a(); exports.b();
      // The optimising compilation runs on a background thread: wait for it (not for a clock).
      for (let i = 0; i < 1000 && !%IsTurboFanFunction(exports.a); i++) await new Promise((r) => setTimeout(r, 10));
      console.log(JSON.stringify({ a: %IsTurboFanFunction(exports.a), b: %IsTurboFanFunction(exports.b), bLiftoff: %IsLiftoffFunction(exports.b) }));`;
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { a: true, b: false, bLiftoff: true });
  });

  it('mark exactly the functions larger than the threshold as Liftoff only, after the function section', () => {
    // (module (func) (func)): an empty body (2 bytes) and one of 8 bytes (six nops).
    const module = new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x03, 0x02, 0x00, 0x00,
      0x0a, 0x0d, 0x02, 0x02, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x0b,
    ]);
    assert.ok(WebAssembly.validate(module));
    const { bytes, liftoffOnly } = withCompilationHints(module, 4);
    assert.equal(liftoffOnly, 1);
    const order = sections(bytes);
    assert.deepEqual(
      order.map((s) => s.name ?? s.id),
      [1, 3, 'compilationHints', 10],
    );
    assert.deepEqual(
      [...order[2]!.payload],
      [2, 0x00, 0x14],
      'count, then no hint for the small body and Liftoff/Liftoff for the large one',
    );
    new WebAssembly.Module(bytes); // with the feature on, a count that did not match the functions would be refused
    // Rewriting a module that has hints already replaces them (V8 refuses a module with two sections).
    const again = withCompilationHints(bytes, 4);
    assert.deepEqual(
      sections(again.bytes).map((s) => s.name ?? s.id),
      [1, 3, 'compilationHints', 10],
    );
    new WebAssembly.Module(again.bytes);
    // A threshold below every body: the whole module on Liftoff (in-memory databases, the template build).
    const all = withCompilationHints(module, -1);
    assert.equal(all.liftoffOnly, 2);
    assert.deepEqual([...sections(all.bytes)[2]!.payload], [2, 0x14, 0x14]);
  });

  it("rewrite PGlite's own module into a valid one that V8 accepts with its hints", () => {
    const wasm = new Uint8Array(
      readFileSync(fileURLToPath(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')))),
    );
    const { bytes, liftoffOnly } = withCompilationHints(wasm);
    assert.ok(liftoffOnly >= 1 && liftoffOnly <= 20, `${liftoffOnly} functions above ${HUGE_FUNCTION_BYTES} bytes`);
    assert.ok(WebAssembly.validate(bytes));
    const hints = sections(bytes).find((s) => s.name === 'compilationHints')!;
    assert.equal(hints.payload.filter((b) => b === 0x14).length, liftoffOnly);
  });
});
