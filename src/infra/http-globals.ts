// The process's fetch, Request, Response, Headers and FormData are the undici package's (#13),
// installed by undici's own `install()` before youtubei.js loads (innertube-client.ts imports this
// module first).
//
// youtubei.js's Node entry hands the library `globalThis.fetch`, `Request`, `Response`, `Headers`
// and `FormData` when it loads. Reading any of Node's own makes Node load its internal copy of
// undici — a second HTTP stack beside the package the service makes every other call with: its
// 0.75 MB source kept as a string, the llhttp WASM parser and its compiled code, ~3 MiB for good
// (bench/reading.md). And the library builds its requests with the global `Request` and sends them
// through our fetch, the package's: undici's README asks not to mix the two, which `install()`
// exists for ("so they all match").
import { install } from 'undici';

install();
