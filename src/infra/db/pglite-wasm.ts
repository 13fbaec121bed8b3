// PGlite's WebAssembly, compiled so that V8 optimises it without the 600 MB compiler burst.
//
// V8 compiles WASM in two tiers: Liftoff (fast to compile, slow code) and TurboFan (slow to compile,
// fast code). TurboFan makes PGlite's statements ~30 % cheaper, but its compiler memory grows faster
// than the function: for PGlite's largest functions (97-127 KB of WASM each) it took 600 MB for
// ~2 s, which pushed the embedded service to 0.9-1.2 GiB at every start. Until now the whole module
// was therefore kept on Liftoff (`--no-wasm-tier-up`).
//
// Here every function is compiled by Liftoff on its first call and then by TurboFan in the
// background, except the few whose body is larger than HUGE_FUNCTION_BYTES: those stay on Liftoff,
// through a "compilationHints" section (one byte per function: strategy, baseline tier, top tier)
// added to a copy of the module. V8 reads that section only with --experimental-wasm-compilation-hints;
// the hints are a V8 feature, not a standard one, so `compilationHintsHonoured()` checks at run time
// that this V8 still applies them and, if it does not, the module stays on Liftoff as before rather
// than risk the burst. Node itself is pinned (the `node` package), so this is checked by a test too.
//
// Measured (bench/reading.md, thirteenth round): PGlite's thread 57-70 against 73-85 µs per
// hot-path request, 1,000 webhooks delivered 8-12 % sooner; the price is memory: the service's RSS
// is 11-18 MiB higher after start and when idle (compiled code, and the compiler's freed memory that
// malloc keeps), and it peaks at 730+ MiB if the huge functions are optimised as well.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

/** Bodies above this many bytes stay on Liftoff: PGlite 0.5's four largest (97-127 KB); the next is 42 KB. */
export const HUGE_FUNCTION_BYTES = 64 * 1024;

/** Unsigned LEB128, as WASM encodes sizes and counts. */
function leb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

function readLeb128(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let next = at;
  for (;;) {
    const byte = bytes[next++];
    if (byte === undefined) throw new Error('WASM module truncated');
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return { value, next };
    shift += 7;
  }
}

function customSection(name: string, payload: Uint8Array): Buffer {
  const nameBytes = Buffer.from(name);
  const body = Buffer.concat([Buffer.from(leb128(nameBytes.length)), nameBytes, payload]);
  return Buffer.concat([Buffer.from([0]), Buffer.from(leb128(body.length)), body]);
}

/** Hint byte: strategy default (bits 0-1), baseline tier Liftoff (2-3), top tier Liftoff (4-5). */
const LIFTOFF_ONLY = (1 << 2) | (1 << 4);

/**
 * A copy of `wasm` with a compilationHints section after its function section: the functions whose
 * body is larger than `hugeBytes` get "Liftoff only", the others no hint. Returns the copy and the
 * number of functions kept on Liftoff.
 */
export function withCompilationHints(
  wasm: Uint8Array,
  hugeBytes = HUGE_FUNCTION_BYTES,
): { bytes: Uint8Array<ArrayBuffer>; liftoffOnly: number } {
  let functionSectionEnd = -1;
  let bodySizes: number[] | null = null;
  // A hints section the module already has is left out: V8 refuses a module with two.
  const existing: Array<[start: number, end: number]> = [];
  for (let at = 8; at < wasm.length; ) {
    const id = wasm[at]!;
    const size = readLeb128(wasm, at + 1);
    const end = size.next + size.value;
    if (id === 3) functionSectionEnd = end;
    if (id === 0) {
      const name = readLeb128(wasm, size.next);
      if (Buffer.from(wasm.subarray(name.next, name.next + name.value)).toString() === 'compilationHints')
        existing.push([at, end]);
    }
    if (id === 10) {
      const count = readLeb128(wasm, size.next);
      bodySizes = [];
      for (let i = 0, p = count.next; i < count.value; i++) {
        const body = readLeb128(wasm, p);
        bodySizes.push(body.value);
        p = body.next + body.value;
      }
    }
    at = end;
  }
  if (functionSectionEnd < 0 || !bodySizes) throw new Error('not a WASM module with functions');
  const hints = new Uint8Array(bodySizes.length);
  let liftoffOnly = 0;
  bodySizes.forEach((size, i) => {
    if (size > hugeBytes) {
      hints[i] = LIFTOFF_ONLY;
      liftoffOnly++;
    }
  });
  const section = customSection('compilationHints', Buffer.concat([Buffer.from(leb128(hints.length)), hints]));
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const [start, end] of [[functionSectionEnd, functionSectionEnd] as [number, number], ...existing].sort(
    (a, b) => a[0] - b[0],
  )) {
    parts.push(wasm.subarray(from, start));
    if (start === functionSectionEnd && end === functionSectionEnd) parts.push(section);
    from = end;
  }
  parts.push(wasm.subarray(from));
  const joined = Buffer.concat(parts);
  return { bytes: new Uint8Array(joined.buffer as ArrayBuffer, joined.byteOffset, joined.byteLength), liftoffOnly };
}

/**
 * Whether this V8 reads compilation hints: with the feature on, a hints section that does not hold
 * one hint per function makes the module invalid (and one that does is accepted); without it, the
 * section is an ignored custom section. That the tiers then follow the hints is checked by
 * test/pglite-wasm.test.ts, in a process that can ask V8 which tier a function runs on.
 */
export function compilationHintsHonoured(): boolean {
  // (module (func)) with a compilationHints section holding `hints`.
  const moduleWith = (hints: number[]) =>
    Buffer.concat([
      Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
      Buffer.from([0x01, 0x04, 0x01, 0x60, 0x00, 0x00]), // type section: () -> ()
      Buffer.from([0x03, 0x02, 0x01, 0x00]), // function section: one function of type 0
      customSection('compilationHints', Buffer.from([hints.length, ...hints])),
      Buffer.from([0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b]), // code section: an empty body
    ]);
  try {
    new WebAssembly.Module(moduleWith([LIFTOFF_ONLY]));
  } catch {
    return false;
  }
  try {
    new WebAssembly.Module(moduleWith([]));
    return false;
  } catch (error) {
    return /compilation hint/i.test(String(error));
  }
}

const HINTS_FLAG = '--experimental-wasm-compilation-hints';
// Set once, when this module loads (after the declarations above, which the check below uses): they
// must precede the compilation of PGlite's module, and they apply to WASM compiled later in the
// process (undici's llhttp included; it is small).
setFlagsFromString(HINTS_FLAG);
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--no-wasm-dynamic-tiering');
// One background compilation at a time: the compiler's memory is freed to malloc, which keeps most
// of it; with V8's default (one task per core) the service's RSS was 15-20 MiB higher after start
// and when idle (bench/memory-probe.ts), and the optimised code arrives a little later instead.
setFlagsFromString('--wasm-num-compilation-tasks=1');
const HONOURED = compilationHintsHonoured();
/** Whether this process optimises PGlite's module (the hints are read); false: Liftoff only. */
export const TIERED = HONOURED;
if (HONOURED) setFlagsFromString('--wasm-tier-up');
else {
  // This V8 ignores the hints: the huge functions would be optimised too. Liftoff only (bench/reading.md, thirteenth
  // round).
  setFlagsFromString('--no-wasm-tier-up');
}

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/**
 * PGlite's module (`pglite.wasm` or `initdb.wasm`) compiled with the hints, once per process and
 * variant: every PGlite opened afterwards instantiates the same module instead of compiling its own.
 * `optimise` false: every function stays on Liftoff (the hints say so for all of them).
 */
function compiledModule(file: 'pglite.wasm' | 'initdb.wasm', optimise: boolean): Promise<WebAssembly.Module> {
  const key = `${file}:${optimise}`;
  let module = compiled.get(key);
  if (!module) {
    const path = fileURLToPath(new URL(`./${file}`, import.meta.resolve('@electric-sql/pglite')));
    const wasm = readFileSync(path);
    const bytes = HONOURED
      ? withCompilationHints(wasm, optimise ? HUGE_FUNCTION_BYTES : -1).bytes
      : new Uint8Array(wasm.buffer as ArrayBuffer, wasm.byteOffset, wasm.byteLength);
    // Synchronously: an asynchronous compilation does not keep a worker thread's event loop alive, and
    // PGlite's thread awaits this at its top level. Lazy compilation makes this ~30-40 ms (decoding
    // and validating, no code generated yet).
    module = Promise.resolve(new WebAssembly.Module(bytes));
    compiled.set(key, module);
  }
  return module;
}

/**
 * The compiled modules for opening PGlite on `dataDir` (null: in memory): PostgreSQL's always, and
 * initdb's when the directory is not initialised yet, since PGlite would otherwise compile its own
 * copy of initdb with this process's flags and no hints (the burst, during initdb).
 *
 * Only a database on a data directory (the service's) is optimised. An in-memory one (tests, the
 * demo) runs initdb each time it opens, and initdb calls thousands of functions once: optimising
 * each of them in the background made the test suites' database-bound files ~30 % slower;
 * the template built at `npm ci` likewise took 10 s instead of 5.6. (A data directory that has to
 * run initdb — no template for this PGlite — runs it on the optimised module: a slower first start.)
 */
export async function pgliteModules(
  dataDir: string | null,
): Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule?: WebAssembly.Module }> {
  const initialised = dataDir !== null && existsSync(join(dataDir, 'PG_VERSION'));
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
    compiledModule('pglite.wasm', dataDir !== null),
    initialised ? undefined : compiledModule('initdb.wasm', false),
  ]);
  return initdbWasmModule ? { pgliteWasmModule, initdbWasmModule } : { pgliteWasmModule };
}
