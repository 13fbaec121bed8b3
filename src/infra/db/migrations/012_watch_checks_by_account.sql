-- An account's usage counts what its watches' checks were charged (found by review: the usage
-- figures summed the requests only, and disagreed with the ledger). Summed per account and day.
CREATE INDEX watch_checks_account_idx ON watch_checks (account_id, created_at);
