-- Login throttle records (src/domain/auth/login-throttle.ts) for PostgreSQL without Redis:
-- failed attempts per (email, address), per email and per address, with the time before which
-- the next attempt is refused (epoch ms).
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  next_at bigint NOT NULL,
  expires_at timestamptz NOT NULL
);

-- API key scopes (src/domain/keys/scopes.ts); NULL = every scope (keys created before scopes).
ALTER TABLE api_keys ADD COLUMN scopes text[];
