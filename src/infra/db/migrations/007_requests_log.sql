-- Issue #16 points 2 and 3: the requests log (filters, cursor pages, rejected calls) and webhook
-- tooling (what each attempt sent and got back, when the next one is due).

-- Keyset pages of an account's requests order by (created_at, id): the index needs both, so a page
-- deep in a long history is an index range scan, not a sort. It supersedes the 001 index.
CREATE INDEX shorts_requests_account_page_idx ON shorts_requests (account_id, created_at DESC, id DESC);
DROP INDEX shorts_requests_account_idx;

-- Calls refused before a request was recorded (400 body validation, 402 at acceptance, 429 rate
-- limited), counted per UTC day rather than stored one by one: a flood of 429s must not become a
-- flood of inserts. Each process counts in memory and adds its counts here every few seconds
-- (http/plugins/rejections.ts). api_key_id '' = a dashboard session.
CREATE TABLE rejected_calls_daily (
  account_id uuid NOT NULL REFERENCES accounts(id),
  day date NOT NULL,
  api_key_id text NOT NULL DEFAULT '',
  http_status integer NOT NULL,
  error_code text NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  last_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, day, api_key_id, http_status, error_code)
);

-- Each attempt's detail: the headers sent (signature included: it is the account's own), the first
-- bytes of the receiver's answer (bounded, see deliver-once.ts), and when the next attempt is due
-- (NULL: none is scheduled — delivered, gone, or the schedule is spent). json, not jsonb: the
-- headers are shown in the order they were sent.
ALTER TABLE webhook_deliveries ADD COLUMN request_headers json;
ALTER TABLE webhook_deliveries ADD COLUMN response_excerpt text;
ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz;

-- The delivery log across all of an account's requests and batches is read newest first by account:
-- the owner is recorded on the attempt (backfilled from its request or batch) so that read needs no join.
ALTER TABLE webhook_deliveries ADD COLUMN account_id uuid REFERENCES accounts(id);
UPDATE webhook_deliveries d SET account_id = r.account_id FROM shorts_requests r WHERE d.request_id = r.id AND d.account_id IS NULL;
UPDATE webhook_deliveries d SET account_id = b.account_id FROM shorts_batches b WHERE d.batch_id = b.id AND d.account_id IS NULL;
CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, id DESC);
