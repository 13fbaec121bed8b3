// rrule-temporal, loaded on first use (see load.ts). pg-boss imports it for its schedules
// (recurrence rules), which the service does not use: its queue runs with `schedule: false`
// (src/infra/queue.ts).
import { onFirstUse } from './load.ts';

const rruleTemporal = onFirstUse<{ RRuleTemporal: new (options: Record<string, unknown>) => object }>(
  'pg-boss',
  'rrule-temporal',
);

/** The one export of rrule-temporal that pg-boss imports (rrule.js): `new RRuleTemporal(…)` gives the real instance. */
export class RRuleTemporal {
  constructor(options: Record<string, unknown>) {
    // A constructor that returns an object gives that object to `new`: the library's own instance.
    // biome-ignore lint/correctness/noConstructorReturn: the point of this class
    return new (rruleTemporal().RRuleTemporal)(options) as RRuleTemporal;
  }
}
