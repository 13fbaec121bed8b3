// The process's fetch, Request, Response, Headers and FormData are the undici package's,
// installed by undici's own `install()` before youtubei.js loads (innertube-client.ts imports this
// module first). `install()` also sets WebSocket, CloseEvent, ErrorEvent, MessageEvent and
// EventSource, which nothing in the service uses (Node's internals keep their own).
//
// youtubei.js's Node entry hands the library `globalThis.fetch`, `Request`, `Response`, `Headers`
// and `FormData` when it loads. Reading Node's own Request, Response, Headers or FormData (or
// calling its fetch) makes Node load its internal copy of undici — a second HTTP stack beside the
// package the service makes every other call with: its 0.75 MB source kept as a string, the llhttp
// WASM parser and its compiled code, ~3 MiB for good (bench/reading.md). And the library builds its requests with the
// global `Request` and sends them through our fetch, the package's: undici's README asks not to mix the two, which
// `install()` exists for ("so they all match").
import { install } from 'undici';

install();
