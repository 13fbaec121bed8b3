-- Answers to POSTs sent with an Idempotency-Key, per caller (`owner`: an account id, or the operator
-- token's fixed name): a retry with the same key and the same request gets the stored answer instead
-- of running again. The body is sealed (domain/idempotency/answer-seal.ts): it may hold a secret shown
-- once, a new API key. status NULL is a claim: the first call is still running. A row older than the
-- replay window (24 h) is never replayed and is deleted by the worker's hourly purge.
CREATE TABLE idempotency_keys (
  owner text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  request_id text NOT NULL,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
