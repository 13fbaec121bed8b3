// bench/history.csv: one row per `npm run bench` (date, commit, each headline figure), so a
// regression shows at a glance; README.md's Benchmarks section shows the latest row between the
// `bench:latest` markers. `node bench/history.ts` redraws that block from the CSV's last row.
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
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results.md', ':!bench/history.csv', ':!README.md'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** Appends this run's row (blank for sections that did not run) and redraws README's block. */
export async function appendHistory(columns: readonly string[], values: Partial<Record<string, string>>): Promise<void> {
  const header = ['date', 'commit', ...columns].join(',');
  const row = [new Date().toISOString(), commit(), ...columns.map((c) => values[c] ?? '')].join(',');
  if (!existsSync(CSV)) await writeFile(CSV, `${header}\n`);
  else if (readFileSync(CSV, 'utf8').split('\n').findLast((line) => line.startsWith('date,')) !== header) await appendFile(CSV, `${header}\n`); // columns changed: a new header starts a new block
  await appendFile(CSV, `${row}\n`);
  await updateReadme();
}

/** Redraws README's latest-row block from the last row of bench/history.csv. */
export async function updateReadme(): Promise<void> {
  const lines = (await readFile(CSV, 'utf8')).trim().split('\n');
  const last = lines.at(-1)!.split(',');
  const header = lines.findLast((line) => line.startsWith('date,'))!.split(',');
  const table = ['| figure | latest |', '|---|---|', ...header.map((name, i) => `| ${name} | ${last[i] || '(not run)'} |`)].join('\n');
  const readme = await readFile(README, 'utf8');
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} block`);
  await writeFile(README, `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await updateReadme();
