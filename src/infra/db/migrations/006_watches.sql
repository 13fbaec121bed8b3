-- Watches (#15): a channel checked on a schedule for new Shorts, reported to a webhook.
-- next_check_at is the schedule's truth: a sweep claims due rows (FOR UPDATE SKIP LOCKED) and moves
-- them forward in the transaction that queues their check job (src/domain/watches/scheduler.ts).
CREATE TABLE watches (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  channel_url text NOT NULL,
  channel_id text NOT NULL,
  channel_title text NOT NULL,
  -- The channel's "@handle" / customUrl, copied into every short reported (as on the shorts endpoint).
  channel_custom_url text,
  webhook_url text NOT NULL,
  interval_seconds integer NOT NULL CHECK (interval_seconds > 0),
  status text NOT NULL CHECK (status IN ('active', 'paused')),
  -- 'user' (PATCH status paused) or 'credits' (the account could not pay; resumed when it can).
  paused_reason text CHECK (paused_reason IN ('user', 'credits')),
  next_check_at timestamptz NOT NULL,
  last_check_at timestamptz,
  last_seen_short_id text,
  last_seen_published_at timestamptz,
  -- Units paid for in advance (1 credit buys QUOTA_UNITS_PER_CREDIT units); never negative.
  prepaid_units integer NOT NULL DEFAULT 0 CHECK (prepaid_units >= 0),
  checks integer NOT NULL DEFAULT 0,
  units_spent integer NOT NULL DEFAULT 0,
  shorts_reported integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watches_account_idx ON watches (account_id, created_at);
CREATE INDEX watches_due_idx ON watches (next_check_at) WHERE status = 'active';
CREATE INDEX watches_channel_idx ON watches (channel_id);

-- Every short a watch has ever listed: a short deleted upstream and reappearing is not new again.
CREATE TABLE watch_seen_shorts (
  watch_id text NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
  video_id text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (watch_id, video_id)
);

-- One row per check that ran to completion; its id is the check job's id (a retried job that finds
-- its row does nothing), and the ledger's request_id of the check's charge. Kept when its watch is
-- deleted (no foreign key): the ledger's charges keep pointing at a check (doctor).
CREATE TABLE watch_checks (
  id text PRIMARY KEY,
  watch_id text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id),
  trigger text NOT NULL CHECK (trigger IN ('create', 'schedule', 'push', 'manual')),
  units integer NOT NULL,
  new_shorts integer NOT NULL,
  credits_charged integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'failed', 'paused')),
  error text,
  -- Publish time of the newest new short (for the publish → notification lag metric).
  newest_published_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watch_checks_watch_idx ON watch_checks (watch_id, created_at DESC);

-- Account-level events delivered to a webhook (src/domain/webhooks/events.ts): shorts.created,
-- watch.paused, watch.resumed, and whatever else is wired onto it (credits.low).
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  type text NOT NULL,
  webhook_url text NOT NULL,
  -- What the event is about (a watch id), for listing; NULL for account-wide events.
  subject_id text,
  -- The delivered body as text (jsonb would re-order its keys): every attempt sends these bytes.
  payload text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_account_idx ON webhook_events (account_id, created_at DESC);
CREATE INDEX webhook_events_subject_idx ON webhook_events (subject_id, created_at DESC) WHERE subject_id IS NOT NULL;

ALTER TABLE webhook_deliveries ADD COLUMN event_id text REFERENCES webhook_events(id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_one_target;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_one_target CHECK (num_nonnulls(request_id, batch_id, event_id) = 1);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id, id) WHERE event_id IS NOT NULL;

-- WebSub (PubSubHubbub) subscriptions of watched channels' upload feeds, one per channel.
CREATE TABLE websub_subscriptions (
  channel_id text PRIMARY KEY,
  -- hub.secret: the hub signs every notification with it (X-Hub-Signature).
  secret text NOT NULL,
  state text NOT NULL CHECK (state IN ('requested', 'verified', 'failed')),
  requested_at timestamptz NOT NULL,
  verified_at timestamptz,
  lease_expires_at timestamptz,
  last_error text
);
