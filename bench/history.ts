// bench/history.csv: one row per `npm run bench` (date, commit, each headline figure), so a
// regression shows at a glance; README.md's Benchmarks section shows each figure's latest value
// between the `bench:latest` markers. `node bench/history.ts` redraws that block from the CSV.
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CSV = fileURLToPath(new URL('./history.csv', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- bench:latest:start (written by bench/history.ts) -->';
const END = '<!-- bench:latest:end -->';

/** HEAD, marked +dirty when source differs from it (the files the bench writes itself excepted). */
function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty =
      execFileSync(
        'git',
        [
          'status',
          '--porcelain',
          '--untracked-files=no',
          '--',
          '.',
          ':!bench/results.md',
          ':!bench/history.csv',
          ':!README.md',
        ],
        { encoding: 'utf8' },
      ).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** Appends this run's row (blank for sections that did not run) and redraws README's block. */
export async function appendHistory(
  columns: readonly string[],
  values: Partial<Record<string, string>>,
): Promise<void> {
  const header = ['date', 'commit', ...columns].join(',');
  const row = [new Date().toISOString(), commit(), ...columns.map((c) => values[c] ?? '')].join(',');
  if (!existsSync(CSV)) await writeFile(CSV, `${header}\n`);
  else if (
    readFileSync(CSV, 'utf8')
      .split('\n')
      .findLast((line) => line.startsWith('date,')) !== header
  )
    await appendFile(CSV, `${header}\n`); // columns changed: a new header starts a new block
  await appendFile(CSV, `${row}\n`);
  await updateReadme();
}

/**
 * Redraws README's block from bench/history.csv: each figure's latest measured value (rows of the
 * current column set, newest first), with the commit it was measured at, so a subset run
 * (BENCH_ONLY) does not blank the figures it did not measure.
 */
export async function updateReadme(): Promise<void> {
  const lines = (await readFile(CSV, 'utf8')).trim().split('\n');
  const headerAt = lines.findLastIndex((line) => line.startsWith('date,'));
  const header = lines[headerAt]!.split(',');
  const rows = lines
    .slice(headerAt + 1)
    .map((line) => line.split(','))
    .reverse();
  const latest = rows[0] ?? [];
  const figures = header.slice(2).map((name, i) => {
    const row = rows.find((r) => r[i + 2]);
    return row ? `| ${name} | ${row[i + 2]} | ${row[1]} (${row[0]!.slice(0, 10)}) |` : `| ${name} | (not run) | |`;
  });
  const table = [
    '| figure | latest | measured at |',
    '|---|---|---|',
    `| last run | ${latest[0] ?? ''} | ${latest[1] ?? ''} |`,
    ...figures,
  ].join('\n');
  const readme = await readFile(README, 'utf8');
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} block`);
  await writeFile(README, `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await updateReadme();
