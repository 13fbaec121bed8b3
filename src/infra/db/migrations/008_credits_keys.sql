-- Issue #16 (points 4 and 5): API key expiry, the low-balance alert, the account's events webhook URL.

-- A key stops authenticating at expires_at (NULL: never). Checked on every use, cached or not
-- (src/domain/auth/authenticator.ts).
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- The low-balance alert: credits.low is emitted once when the balance falls below the threshold
-- (credits_low_sent turns true in the same statement that records the event, so concurrent charges
-- record it once) and re-armed when a grant lifts the balance back to the threshold or above.
ALTER TABLE accounts ADD COLUMN low_balance_threshold integer CHECK (low_balance_threshold > 0);
ALTER TABLE accounts ADD COLUMN credits_low_sent boolean NOT NULL DEFAULT false;
-- Where account-level events (credits.low) are delivered; validated like webhookUrl.
ALTER TABLE accounts ADD COLUMN events_webhook_url text;

-- Account-level credit events as they happened, payload as it is delivered. Append-only.
CREATE TABLE credit_events (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  type text NOT NULL CHECK (type IN ('credits.low')),
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_events_account_idx ON credit_events (account_id, id DESC);

-- Account events recorded inside a charge (credits.low) cannot queue their delivery there: the
-- charge statements run where no queue connection is at hand. They are written with
-- dispatched_at NULL, and the worker's sweep queues their first delivery attempt and sets it, in one
-- transaction (an outbox). Events recorded with their job already queued (watches) set it at once.
ALTER TABLE webhook_events ADD COLUMN dispatched_at timestamptz;
UPDATE webhook_events SET dispatched_at = created_at;
CREATE INDEX webhook_events_undispatched_idx ON webhook_events (created_at) WHERE dispatched_at IS NULL;
