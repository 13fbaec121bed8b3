// One HTTP client stack in the service's process: the undici package. Node carries a second
// copy of undici inside it, which it loads when a program touches the global fetch, Request,
// Response, Headers or FormData, or imports node:http as an ES module (its namespace includes
// WebSocket and MessageEvent): ~3 MiB for good (bench/reading.md). This runs the bundle as
// `npm start` does, in the default source mode (hybrid with a key: youtubei.js loaded, InnerTube
// and Data API calls), serves a cold request and a webhook, and asks the process at exit which of
// Node's modules it loaded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, startChild } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { childServiceFixture, sessionHeaders } from './helpers/child-fixture.ts';
import { fakeEnv } from './helpers/harness.ts';

/** Node's bundled undici, as process.moduleLoadList names it once loaded. */
const NODE_UNDICI = 'NativeModule internal/deps/undici/undici';

/**
 * Preloaded into the service: at exit, its main thread writes the built-in modules it loaded to
 * LOADED_MODULES_FILE. (Preloads run in worker threads too; PGlite's thread is terminated, not
 * exited, and would only write the same file.)
 */
const REPORT_AT_EXIT = `data:text/javascript,${encodeURIComponent("import { writeFileSync } from 'node:fs'; import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(process.moduleLoadList)));")}`;

describe('the HTTP client stack of the service process', () => {
  const fixture = childServiceFixture('stack', 'stack@example.com');

  it('is the undici package alone: Node never loads its own copy, in the default source mode', async () => {
    const { fake, dataDir } = fixture;
    const receiver = await startReceiver();
    fixture.receiver = receiver;
    const report = join(dataDir, 'loaded-modules.json');
    const service = await startChild(
      'dist/server.mjs',
      {
        DATA_DIR: dataDir,
        YOUTUBE_API_KEY: 'fake-api-key',
        YOUTUBE_SOURCE: 'auto',
        ...fakeEnv(fake),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        LOADED_MODULES_FILE: report,
      },
      { nodeFlags: [...SERVICE_NODE_FLAGS, '--import', REPORT_AT_EXIT] },
    );
    fixture.service = service;
    const headers = await sessionHeaders(service.url, 'stack@example.com');
    const cold = await fetch(`${service.url}/api/youtube/shorts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@demo' }),
    });
    assert.equal(cold.status, 200, await cold.clone().text());
    assert.ok((await cold.json()).data.shorts.length > 0);
    assert.ok(fake.innertubeCalls().length > 0, 'the request went through youtubei.js');
    const accepted = await fetch(`${service.url}/api/youtube/shorts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: receiver.url('/hook') }),
    });
    assert.equal(accepted.status, 202);
    await until(async () => receiver.deliveries.length > 0, 30_000);
    await service.kill('SIGTERM');
    const loaded = JSON.parse(await readFile(report, 'utf8')) as string[];
    assert.ok(
      loaded.includes('NativeModule internal/modules/esm/loader'),
      'the report lists the built-in modules the process loaded',
    );
    assert.equal(loaded.includes(NODE_UNDICI), false, "Node's own undici was loaded");
  });
});
