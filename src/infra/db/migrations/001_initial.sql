-- Accounts: one per user. The balance is kept here and changed only together with a ledger row,
-- in one transaction (src/domain/credits/ledger.ts); the CHECK makes an overdraw impossible.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  credit_balance integer NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  rate_limit_per_hour integer CHECK (rate_limit_per_hour > 0),
  rate_limit_per_day integer CHECK (rate_limit_per_day > 0),
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at);

-- Append-only: rows are inserted, never updated or deleted.
CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  kind text NOT NULL CHECK (kind IN ('grant', 'charge')),
  amount integer NOT NULL,
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  request_id text,
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_account_idx ON credit_ledger (account_id, id DESC);
-- A request is charged at most once, even when a worker retries after a crash.
CREATE UNIQUE INDEX credit_ledger_one_charge_per_request ON credit_ledger (request_id) WHERE kind = 'charge';

CREATE TABLE shorts_requests (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  api_key_id uuid,
  channel_url text NOT NULL,
  oldest_date bigint,
  webhook_url text,
  mode text NOT NULL CHECK (mode IN ('sync', 'webhook')),
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  http_status integer,
  item_count integer,
  credits_charged integer,
  error_code text,
  result jsonb,
  quota_units integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX shorts_requests_account_idx ON shorts_requests (account_id, created_at DESC);

CREATE TABLE webhook_secrets (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);
CREATE INDEX webhook_secrets_account_idx ON webhook_secrets (account_id, created_at DESC);

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  request_id text NOT NULL REFERENCES shorts_requests(id),
  webhook_id text NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  latency_ms integer,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed', 'gone')),
  error text
);
CREATE INDEX webhook_deliveries_request_idx ON webhook_deliveries (request_id, id);

-- Process-wide settings shared by all instances (e.g. the generated JWT secret).
CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Fixed-window counters for deployments with PostgreSQL but without Redis.
CREATE TABLE rate_limit_counters (
  bucket text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
