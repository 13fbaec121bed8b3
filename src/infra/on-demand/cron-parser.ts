// cron-parser (and luxon, which it loads), loaded on first use (see load.ts). pg-boss imports it
// for its schedules (cron expressions), which the service does not use: its queue runs with
// `schedule: false` (src/infra/queue.ts).
import { onFirstUse } from './load.ts';

const cronParser = onFirstUse<{
  CronExpressionParser: { parse(expression: string, options?: Record<string, unknown>): unknown };
}>('pg-boss', 'cron-parser');

/** The one export of cron-parser that pg-boss imports (timekeeper.js, timezone.js), with its one method. */
export const CronExpressionParser = {
  parse: (expression: string, options?: Record<string, unknown>): unknown =>
    cronParser().CronExpressionParser.parse(expression, options),
};
