// A test reporter for `npm test`, beside the usual one: the suites skipped because this machine
// lacks PostgreSQL, Redis or Chromium (support/databases.ts, support/browser.ts) gathered into one
// line at the end, so a run without them says plainly what it did not test and why. Silent when
// nothing was skipped for that reason.
import { NEEDS } from './databases.ts';

interface SkipEvent {
  type: string;
  data: { skip?: string | boolean; nesting?: number };
}

export default async function* skipSummary(source: AsyncIterable<SkipEvent>): AsyncGenerator<string> {
  const reasons = new Map<string, number>();
  for await (const event of source) {
    const skip = event.data?.skip;
    if (event.type !== 'test:pass' || typeof skip !== 'string' || !skip.startsWith(NEEDS)) continue;
    const what = skip.slice(NEEDS.length).split(';')[0]!;
    reasons.set(what, (reasons.get(what) ?? 0) + 1);
  }
  if (reasons.size === 0) return;
  const total = [...reasons.values()].reduce((sum, n) => sum + n, 0);
  const list = [...reasons].map(([what, n]) => `${n} need ${what}`).join('; ');
  yield `\nSkipped ${total} suite${total === 1 ? '' : 's'}: ${list}. README, "Tests", says how to start them; ` +
    'under CI=true they fail instead.\n';
}
