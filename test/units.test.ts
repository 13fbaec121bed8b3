import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { priceFor } from '../src/domain/shorts/pricing.ts';
import { parseRetryAfter, retryDelaySeconds } from '../src/domain/webhooks/retry-schedule.ts';
import { isForbiddenAddress } from '../src/domain/webhooks/address-policy.ts';
import { assertAcceptableWebhookUrl } from '../src/domain/webhooks/webhook-url.ts';
import { parseTimestamp, toChannel } from '../src/domain/shorts/mapping.ts';
import { generateApiKey, isWellFormedApiKey } from '../src/domain/keys/api-key-format.ts';
import { loadConfig } from '../src/config.ts';
import { splitStatements } from '../src/infra/db/migrate.ts';
import { JOBS_PER_FETCH, runEach, workOptions } from '../src/jobs/start-workers.ts';
import { readFileSync } from 'node:fs';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../support/child-service.ts';

describe('pricing', () => {
  const settings = { creditsPerBlock: 1, shortsPerBlock: 50, minimumCredits: 1 };
  it('charges 1 credit per started block of 50 shorts, at least 1', () => {
    assert.deepEqual(
      [0, 1, 49, 50, 51, 100, 101, 3000].map((n) => priceFor(n, settings)),
      [1, 1, 1, 1, 2, 2, 3, 60],
    );
  });
  it('follows the configured price', () => {
    assert.equal(priceFor(120, { creditsPerBlock: 3, shortsPerBlock: 100, minimumCredits: 5 }), 6);
    assert.equal(priceFor(0, { creditsPerBlock: 3, shortsPerBlock: 100, minimumCredits: 5 }), 5);
  });
});

describe('webhook retry schedule', () => {
  const schedule = [5, 300, 1800];
  it('follows the schedule with ±20% jitter and stops when it is spent', () => {
    assert.equal(
      retryDelaySeconds(schedule, 2, null, () => 0),
      4,
    );
    assert.equal(
      retryDelaySeconds(schedule, 2, null, () => 1),
      6,
    );
    assert.equal(
      retryDelaySeconds(schedule, 3, null, () => 0.5),
      300,
    );
    assert.equal(retryDelaySeconds(schedule, 5, null), null);
  });
  it('honours a longer Retry-After, capped at a day', () => {
    assert.equal(
      retryDelaySeconds(schedule, 2, 120, () => 0.5),
      120,
    );
    assert.equal(
      retryDelaySeconds(schedule, 2, 10 ** 9, () => 0.5),
      86_400,
    );
    assert.equal(parseRetryAfter('30'), 30);
    assert.equal(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString()) !== null, true);
    assert.equal(parseRetryAfter('soon'), null);
  });
});

describe('SSRF address policy', () => {
  const forbidden = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2002:a00:1::5',
    '224.0.0.1',
    'not-an-ip',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'];
  for (const ip of forbidden) it(`refuses ${ip}`, () => assert.equal(isForbiddenAddress(ip), true));
  for (const ip of allowed) it(`allows ${ip}`, () => assert.equal(isForbiddenAddress(ip), false));
  it('refuses clearly unsafe webhook URLs at request time unless private targets are allowed', () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://localhost:8080/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest/meta-data',
      'http://intranet/x',
      'ftp://example.com/x',
      'https://user:pw@example.com/x',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      assert.throws(
        () => assertAcceptableWebhookUrl(url, false),
        (e: Error & { code?: string }) => e.code === 'UNSAFE_WEBHOOK_URL',
        url,
      );
    }
    assert.equal(assertAcceptableWebhookUrl('https://hooks.example.com/x', false).hostname, 'hooks.example.com');
    assert.equal(assertAcceptableWebhookUrl('http://127.0.0.1:9/x', true).port, '9');
  });
});

describe('mapping', () => {
  it('parses timestamps with and without fractions, zone-less as UTC', () => {
    assert.equal(parseTimestamp('2026-05-31T11:00:00Z'), Date.UTC(2026, 4, 31, 11));
    assert.equal(parseTimestamp('2026-05-31T11:00:00.123Z'), Date.UTC(2026, 4, 31, 11) + 123);
    assert.equal(parseTimestamp('2026-05-31T11:00:00'), Date.UTC(2026, 4, 31, 11));
    assert.equal(parseTimestamp('garbage'), undefined);
  });
  it("omits absent values and copies only the spec's fields", () => {
    const channel = toChannel({
      kind: 'youtube#channel',
      etag: 'e',
      id: 'UC1',
      snippet: { title: 'T', extra: 'x' } as never,
      statistics: { viewCount: '1', hiddenSubscriberCount: false },
    });
    assert.deepEqual(channel, {
      kind: 'youtube#channel',
      etag: 'e',
      id: 'UC1',
      snippet: { title: 'T' },
      statistics: { viewCount: '1', hiddenSubscriberCount: false },
      brandingSettings: { channel: {}, image: {} },
    });
  });
});

describe('API key format', () => {
  it('generates distinct, checksummed keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    assert.equal(keys.size, 200);
    for (const key of keys) assert.ok(isWellFormedApiKey(key));
    assert.equal(isWellFormedApiKey('csk_short'), false);
  });
});

describe('config', () => {
  it('applies defaults and converts types', () => {
    const config = loadConfig({ PORT: '8080', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    assert.equal(config.PORT, 8080);
    assert.equal(config.WEBHOOK_ALLOW_PRIVATE_TARGETS, true);
    assert.equal(config.RATE_LIMIT_PER_MINUTE, 60);
    assert.equal(config.JWT_TTL_SECONDS, 3600);
  });
  it('names every bad variable', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty', JWT_SECRET: 'short' }), /PORT.*JWT_SECRET|JWT_SECRET.*PORT/);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,x' }), /WEBHOOK_RETRY_SCHEDULE/);
    // Less than one probe's units made every uncached request fail.
    assert.throws(() => loadConfig({ QUOTA_ALLOWANCE_UNITS: '0' }), /QUOTA_ALLOWANCE_UNITS/);
    assert.equal(loadConfig({ QUOTA_ALLOWANCE_UNITS: '3' }).QUOTA_ALLOWANCE_UNITS, 3);
    // A retention beyond dates JavaScript can hold made every stored result's page a 500.
    assert.throws(() => loadConfig({ RESULT_RETENTION_DAYS: '200000000' }), /RESULT_RETENTION_DAYS/);
    // A choice among words names them, once (before: "must be equal to constant" seven times).
    assert.throws(
      () => loadConfig({ LOG_LEVEL: 'verbose' }),
      (error: Error) =>
        error.message ===
        'Invalid configuration: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    );
    assert.throws(
      () => loadConfig({ YOUTUBE_SOURCE: 'foo' }),
      /YOUTUBE_SOURCE: must be one of auto, data-api, hybrid, innertube \(got "foo"\)$/,
    );
  });
});

describe('request ids', () => {
  it('are well formed and distinct across several refills of the random pool', async () => {
    const { newRequestId } = await import('../src/http/request-id.ts');
    const ids = Array.from({ length: 2000 }, () => newRequestId());
    for (const id of ids) assert.match(id, /^req_[a-z0-9]{8,9}[0-9a-f]{20}$/);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(new Set(ids.map((id) => id.slice(-20))).size, ids.length, 'the random parts never repeat');
  });
});

describe('job workers', () => {
  it('fetch jobs in batches, never running more than WORKER_CONCURRENCY at once', () => {
    for (const perFetch of Object.values(JOBS_PER_FETCH)) {
      for (let concurrency = 1; concurrency <= 60; concurrency++) {
        const { localConcurrency, batchSize } = workOptions(concurrency, perFetch);
        assert.ok(localConcurrency * batchSize <= concurrency, `${concurrency}: ${localConcurrency} × ${batchSize}`);
        assert.ok(batchSize >= 1 && batchSize <= perFetch);
        assert.ok(
          localConcurrency * batchSize > concurrency - localConcurrency,
          `${concurrency}: ${localConcurrency} × ${batchSize} leaves too much unused`,
        );
        // Two workers at least: one slow webhook receiver holds back half a queue's jobs at most.
        if (concurrency >= 2) assert.ok(localConcurrency >= 2, `${concurrency}: one worker`);
      }
    }
    const shape = (concurrency: number, perFetch: number) => [
      workOptions(concurrency, perFetch).localConcurrency,
      workOptions(concurrency, perFetch).batchSize,
    ];
    assert.deepEqual(shape(10, JOBS_PER_FETCH.pglite), [2, 5]);
    assert.deepEqual(shape(20, JOBS_PER_FETCH.pglite), [2, 10]);
    assert.deepEqual(shape(20, JOBS_PER_FETCH.postgres), [2, 10]);
    assert.deepEqual(shape(45, JOBS_PER_FETCH.postgres), [5, 9]);
    assert.deepEqual(shape(1, JOBS_PER_FETCH.pglite), [1, 1]);
  });

  it('settles each job of a batch on its own: one failure fails only its job', async () => {
    const jobs = ['a', 'b', 'c'].map((id) => ({ id, data: id })) as unknown as Parameters<typeof runEach<string>>[0];
    const boom = new Error('b failed');
    const results = await runEach(jobs, async (data) => {
      if (data === 'b') throw boom;
    });
    assert.deepEqual(results, [
      { id: 'a', status: 'completed' },
      { id: 'b', status: 'failed', output: boom },
      { id: 'c', status: 'completed' },
    ]);
  });
});

describe("the service process's node flags", () => {
  it('npm start and npm run worker pass the flags and environment tests and benchmarks start the service with', () => {
    const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts as Record<
      string,
      string
    >;
    const env = Object.entries(SERVICE_ENV)
      .map(([name, value]) => `${name}=\${${name}:-${value}} `)
      .join('');
    for (const [name, file] of [
      ['start', 'dist/server.mjs'],
      ['worker', 'dist/worker.mjs'],
    ] as const) {
      assert.equal(
        scripts[name],
        `node scripts/build-bundle.ts --if-stale && ${env}exec node ${SERVICE_NODE_FLAGS.join(' ')} ${file}`,
      );
    }
  });
});

describe('migration files', () => {
  it('are cut at line-ending semicolons, but not inside a function body ($$ … $$), without comment lines', () => {
    const sql = [
      '-- a comment; with a semicolon',
      'ALTER TABLE a DROP CONSTRAINT a_fkey;',
      'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$',
      'BEGIN',
      "  RAISE EXCEPTION 'no';",
      'END',
      '$$;',
      'CREATE TRIGGER t BEFORE DELETE ON a FOR EACH ROW EXECUTE FUNCTION f();  ',
      'SELECT 1',
    ].join('\n');
    assert.deepEqual(splitStatements(sql), [
      'ALTER TABLE a DROP CONSTRAINT a_fkey',
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RAISE EXCEPTION 'no';\nEND\n$$",
      'CREATE TRIGGER t BEFORE DELETE ON a FOR EACH ROW EXECUTE FUNCTION f()',
      'SELECT 1',
    ]);
  });
});
