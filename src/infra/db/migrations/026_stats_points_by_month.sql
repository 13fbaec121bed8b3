-- Snapshots partitioned by UTC month: at the target scale (1,000 tracked channels × 100 Shorts ×
-- hourly checks, 72 M rows a month) every read is a primary-key probe bounded in time, so it only
-- touches the partitions of its window, and a month's rows are one table to vacuum, roll up or
-- drop. The same schema on the embedded store: one definition, and there a few small tables.
--
-- Months are created ahead by the sweeper (stats_points_add_months, from src/domain/stats/
-- partitions.ts). A point outside every month (a clock far off, or a sweeper that has not run
-- yet) lands in the default partition and is moved into its month when that month is created, so
-- no write ever fails for want of a partition.
ALTER TABLE stats_points RENAME TO stats_points_unpartitioned;
ALTER TABLE stats_points_unpartitioned RENAME CONSTRAINT stats_points_pkey TO stats_points_unpartitioned_pkey;
CREATE TABLE stats_points (
  short_id bigint NOT NULL,
  at timestamptz NOT NULL,
  views bigint NOT NULL,
  likes bigint,
  comments bigint,
  exact boolean NOT NULL,
  PRIMARY KEY (short_id, at)
) PARTITION BY RANGE (at);
CREATE TABLE stats_points_default PARTITION OF stats_points DEFAULT;

-- The roll-up (retention.ts) reads a few days of every Short: a BRIN index on the time, which
-- rows arrive in, keeps that from scanning the whole month (a few pages per partition).
CREATE INDEX stats_points_at ON stats_points USING brin (at);

-- Creates the partitions of the UTC months from `first` to `last` (both included) that do not
-- exist yet, moving any of their rows out of the default partition; returns how many it created.
-- Serialised by an advisory lock: instances sweeping together create each month once.
CREATE FUNCTION stats_points_add_months(first timestamptz, last timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month timestamp := date_trunc('month', first AT TIME ZONE 'UTC');
  lo timestamptz;
  hi timestamptz;
  name text;
  created integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(424243);
  WHILE month <= date_trunc('month', last AT TIME ZONE 'UTC') LOOP
    name := 'stats_points_' || to_char(month, 'YYYY_MM');
    IF to_regclass(name) IS NULL THEN
      lo := month AT TIME ZONE 'UTC';
      hi := (month + interval '1 month') AT TIME ZONE 'UTC';
      EXECUTE format('CREATE TABLE %I (LIKE stats_points)', name);
      EXECUTE format('WITH moved AS (DELETE FROM stats_points_default WHERE at >= %L AND at < %L RETURNING *) '
        'INSERT INTO %I SELECT * FROM moved', lo, hi, name);
      EXECUTE format('ALTER TABLE stats_points ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
      created := created + 1;
    END IF;
    month := month + interval '1 month';
  END LOOP;
  RETURN created;
END
$$;

-- The months the stored points cover, and this one and the next two.
SELECT stats_points_add_months(least(min(at), now()), now() + interval '2 months') FROM stats_points_unpartitioned;
INSERT INTO stats_points SELECT * FROM stats_points_unpartitioned;
DROP TABLE stats_points_unpartitioned;
