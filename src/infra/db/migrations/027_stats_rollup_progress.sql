-- How far the roll-up of old snapshots has got (src/domain/stats/retention.ts): before this UTC day
-- every Short has at most one point per day. One row, null until the first run; a run locks it, so
-- instances sweeping together roll each day up once, and an hourly run with nothing to do reads
-- only this row.
CREATE TABLE stats_rollup (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  rolled_until timestamptz
);
INSERT INTO stats_rollup (id, rolled_until) VALUES (true, NULL);
