-- Features of issue #14: request options (sort, duration filters), batches, paged results.

-- What a request asked for beyond channelUrl/oldestDate/limit: {sort, minDurationSeconds,
-- maxDurationSeconds}; a webhook job reads it to do what was asked. NULL = none.
ALTER TABLE shorts_requests ADD COLUMN options jsonb;

-- A batch: up to 50 webhook requests accepted together (all or none), and one batch.completed
-- summary webhook once every item has settled (completed_at set in the transaction of the last item).
CREATE TABLE shorts_batches (
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  webhook_url text NOT NULL,
  item_count integer NOT NULL CHECK (item_count > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX shorts_batches_account_idx ON shorts_batches (account_id, created_at DESC);

ALTER TABLE shorts_requests ADD COLUMN batch_id text REFERENCES shorts_batches(id);
CREATE INDEX shorts_requests_batch_idx ON shorts_requests (batch_id) WHERE batch_id IS NOT NULL;

-- Delivery attempts of a batch's summary webhook are recorded beside those of requests.
ALTER TABLE webhook_deliveries ALTER COLUMN request_id DROP NOT NULL;
ALTER TABLE webhook_deliveries ADD COLUMN batch_id text REFERENCES shorts_batches(id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_one_target CHECK ((request_id IS NULL) <> (batch_id IS NULL));
CREATE INDEX webhook_deliveries_batch_idx ON webhook_deliveries (batch_id, id) WHERE batch_id IS NOT NULL
