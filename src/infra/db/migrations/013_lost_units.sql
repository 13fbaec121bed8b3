-- Upstream units a request spent after its price was known and reserved, when it then failed on the
-- service's own side (its database or Redis unavailable, an unexpected error): the service's loss,
-- counted apart from the account's unpaid allowance (found by review: a full disk or a PostgreSQL
-- restart used up every busy account's allowance and locked it out of new channels until midnight).
ALTER TABLE account_quota_days ADD COLUMN IF NOT EXISTS lost_units integer NOT NULL DEFAULT 0;
