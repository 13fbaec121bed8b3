// rrule-temporal, loaded on first use (see load.ts). pg-boss imports it for its schedules
// (recurrence rules), which the service does not use: its queue runs with `schedule: false`
// (src/infra/queue.ts).
import { loadAsDependencyOf } from './load.ts';

interface RRuleTemporalModule {
  RRuleTemporal: new (options: Record<string, unknown>) => object;
}

let rruleTemporal: RRuleTemporalModule | undefined;

/** The one export of rrule-temporal that pg-boss imports (rrule.js): `new RRuleTemporal(…)` gives the real instance. */
export class RRuleTemporal {
  constructor(options: Record<string, unknown>) {
    rruleTemporal ??= loadAsDependencyOf<RRuleTemporalModule>('pg-boss', 'rrule-temporal');
    // A constructor that returns an object gives that object to `new`: the library's own instance.
    // biome-ignore lint/correctness/noConstructorReturn: the point of this class
    return new rruleTemporal.RRuleTemporal(options) as RRuleTemporal;
  }
}
