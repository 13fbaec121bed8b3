// INNERTUBE_PROXY_URL: YouTube's web API through an outbound HTTP proxy (undici's ProxyAgent), tested
// against a real proxy process on loopback (support/proxy-server.ts, the `proxy` package). Every
// InnerTube call tunnels through it with the URL's credentials; the Data API never does.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createUser, bearer, type TestApp, type TestUser } from './helpers/test-app.ts';
import { harness } from './helpers/harness.ts';
import { stopChild } from '../support/child-service.ts';

const SHORTS = '/api/youtube/shorts';
const post = (t: TestApp, user: TestUser, handle: string) =>
  t.app.inject({
    method: 'POST',
    url: SHORTS,
    headers: bearer(user.key),
    payload: { channelUrl: `https://www.youtube.com/@${handle}` },
  });

/** The proxy process, its port and what it has printed so far. */
async function startProxy(t: { after(fn: () => Promise<void>): void }) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../support/proxy-server.ts', import.meta.url))], {
    env: { ...process.env, PROXY_USER: 'scraper', PROXY_PASSWORD: 's3cret' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  t.after(() => stopChild(child, exited));
  let output = '';
  child.stdout.setEncoding('utf8');
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const port = /^listening (\d+)$/m.exec(output)?.[1];
      if (port) resolve(Number(port));
    });
    child.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before listening`)));
  });
  return { port: await listening, output: () => output, stop: () => stopChild(child, exited) };
}

it('InnerTube goes through INNERTUBE_PROXY_URL with its credentials; the Data API never does', async (t) => {
  const proxy = await startProxy(t);
  const env = (credentials: string) => ({
    YOUTUBE_SOURCE: 'hybrid',
    CACHE_TTL_SECONDS: '0',
    INNERTUBE_PROXY_URL: `http://${credentials}@127.0.0.1:${proxy.port}`,
  });
  const h = await harness(t, { env: env('scraper:s3cret') });
  const fakeHost = new URL(h.fake.innertubeBaseUrl).host;
  const user = await createUser(h, 100);

  const through = await post(h, user, 'fake-60');
  assert.equal(through.statusCode, 200, through.body);
  assert.deepEqual([through.json().source, through.json().itemCount], ['hybrid', 60], 'listed from the Shorts tab');
  const tunnels = proxy
    .output()
    .split('\n')
    .filter((line) => line === `CONNECT ${fakeHost}`);
  assert.ok(tunnels.length >= 1, proxy.output());
  assert.doesNotMatch(proxy.output(), /refused/);

  // Wrong credentials: the proxy refuses every InnerTube call, so none reaches YouTube any other way.
  const refusing = await h.sibling({
    env: { ...env('scraper:wrong'), YOUTUBE_SOURCE: 'innertube', YOUTUBE_API_KEY: '' },
  });
  const keylessUser = await createUser(refusing, 100);
  const refused = await post(refusing, keylessUser, 'fake-61');
  assert.deepEqual([refused.statusCode, refused.json().error], [503, 'UPSTREAM_UNAVAILABLE'], refused.body);
  assert.match(proxy.output(), new RegExp(`^refused CONNECT ${fakeHost}$`, 'm'));

  // The proxy gone: InnerTube cannot be reached, and hybrid reads through the Data API, which never used it.
  await proxy.stop();
  const direct = await post(h, user, 'fake-62');
  assert.equal(direct.statusCode, 200, direct.body);
  assert.deepEqual([direct.json().source, direct.json().itemCount], ['data-api', 62]);
});
