-- The PostgreSQL rate limiter's check-then-count in one round trip (#13). It was a transaction of
-- seven statements (BEGIN, the bucket's advisory lock, a read, three upserts, COMMIT), and an
-- account's concurrent requests queue on that lock: with PostgreSQL and no Redis, one account's
-- hot path ran at ~780 requests/s, its HTTP thread spending ~600 µs per request. Inside a function
-- the same steps hold the lock for one statement's execution. Each statement in a VOLATILE
-- PL/pgSQL function takes a new snapshot, so the read after the lock sees every count committed
-- before it (src/infra/ratelimit/sql-rate-limiter.ts).
CREATE FUNCTION rate_limit_take(lock_key text, buckets text[], starts bigint[], limits integer[], expires timestamptz[], take boolean)
RETURNS TABLE (counts integer[], admitted boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  current integer[];
  ok boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(lock_key));
  SELECT array_agg(coalesce(c.count, 0) ORDER BY w.i) INTO current
  FROM unnest(buckets, starts) WITH ORDINALITY AS w(bucket, window_start, i)
  LEFT JOIN rate_limit_counters c ON c.bucket = w.bucket AND c.window_start = w.window_start;
  ok := NOT EXISTS (SELECT 1 FROM unnest(current, limits) AS x(n, lim) WHERE x.n >= x.lim);
  IF ok AND take THEN
    INSERT INTO rate_limit_counters AS r (bucket, window_start, count, expires_at)
    SELECT w.bucket, w.window_start, 1, w.expires_at FROM unnest(buckets, starts, expires) AS w(bucket, window_start, expires_at)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = r.count + 1;
  END IF;
  RETURN QUERY SELECT current, ok;
END
$$;
