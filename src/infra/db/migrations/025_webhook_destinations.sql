-- The health of each URL an account's webhooks are sent to, kept up to date by the statement that
-- records the attempts (domain/webhooks/destinations.ts). Computing it from webhook_deliveries would
-- join every attempt to its request, batch or event for its URL, and "failing since" needs the last
-- success, which for a receiver that never answered is a scan of all its attempts; the delivery job
-- also asks, before every attempt, whether the destination is paused. One row per (account, URL):
-- a URL may be up to 2048 characters, too long for a btree entry, hence the md5.
CREATE TABLE webhook_destinations (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  url text NOT NULL,
  consecutive_failures int NOT NULL DEFAULT 0,
  -- The first failure of the current run of failures; NULL while the last attempt succeeded.
  failing_since timestamptz,
  last_error text,
  last_status_code int,
  last_failure_at timestamptz,
  last_success_at timestamptz,
  last_attempt_at timestamptz NOT NULL,
  -- Set when the destination has failed for WEBHOOK_DISABLE_AFTER_DAYS; new attempts are then held.
  paused_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX webhook_destinations_url_idx ON webhook_destinations (account_id, md5(url));
CREATE INDEX webhook_destinations_paused_idx ON webhook_destinations (account_id) WHERE paused_at IS NOT NULL;

-- Attempts per destination and hour: the recent success rate is the sum of the last day's rows.
-- No foreign key: written with every recorded attempt, and destinations are never deleted.
CREATE TABLE webhook_destination_hours (
  destination_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  delivered int NOT NULL DEFAULT 0,
  failed int NOT NULL DEFAULT 0,
  PRIMARY KEY (destination_id, hour)
);
CREATE INDEX webhook_destination_hours_hour_idx ON webhook_destination_hours (hour);

-- The account's event history (GET /accounts/events) also holds webhook.destination.paused.
ALTER TABLE credit_events DROP CONSTRAINT IF EXISTS credit_events_type_check;
ALTER TABLE credit_events ADD CONSTRAINT credit_events_type_check
  CHECK (type IN ('credits.low', 'webhook.destination.paused'));
