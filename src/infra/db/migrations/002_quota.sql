-- Upstream quota economy (docs/quota.md): credits are reserved before upstream work, the work is
-- capped at what the reservation pays for, and the actual price is settled when the request is
-- recorded. Available credits = credit_balance - credits_reserved; the balance itself changes only
-- together with a ledger row, so balance = sum(ledger) holds at every moment.
ALTER TABLE accounts ADD COLUMN credits_reserved integer NOT NULL DEFAULT 0 CHECK (credits_reserved >= 0);

-- One row per request holding credits. A synchronous request's row expires shortly after the
-- request's own timeout (a crashed process cannot hold credits for long); a webhook request's row
-- is held until its job settles.
CREATE TABLE credit_reservations (
  request_id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  credits integer NOT NULL CHECK (credits >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX credit_reservations_account_idx ON credit_reservations (account_id, expires_at);

-- Upstream units spent on behalf of an account per quota day (midnight America/Los_Angeles):
-- all of them, and the part no credit paid for (failed lookups, refusals after a probe), which is
-- bounded by QUOTA_ALLOWANCE_UNITS.
CREATE TABLE account_quota_days (
  account_id uuid NOT NULL REFERENCES accounts(id),
  quota_day text NOT NULL,
  units integer NOT NULL DEFAULT 0,
  unpaid_units integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, quota_day)
);

-- Units used per Data API key per quota day, shared by every instance. key_id is a short hash of
-- the key (the key itself is never stored).
CREATE TABLE upstream_key_usage (
  key_id text NOT NULL,
  quota_day text NOT NULL,
  units integer NOT NULL DEFAULT 0,
  exhausted_at timestamptz,
  PRIMARY KEY (key_id, quota_day)
);

-- Keys the platform rejected (keyInvalid): out of the pool until retry_at.
CREATE TABLE upstream_key_status (
  key_id text PRIMARY KEY,
  invalid_reason text NOT NULL,
  invalid_since timestamptz NOT NULL,
  retry_at timestamptz NOT NULL
)
;

-- The caller's `limit` (at most that many shorts), kept so a webhook job reads what was asked.
ALTER TABLE shorts_requests ADD COLUMN item_limit integer;

-- The caller's freshness preference (stale-ok | exact), kept so a webhook job honours it.
ALTER TABLE shorts_requests ADD COLUMN freshness text
