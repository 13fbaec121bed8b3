-- Watch checks in the account's figures (found by review).
-- 1. Usage counts what its watches' checks were charged: the usage figures summed the requests
--    only and disagreed with the ledger. Summed per account and day.
CREATE INDEX watch_checks_account_idx ON watch_checks (account_id, created_at);
-- 2. A check names its channel itself, so the statement shows what a check's charge was for
--    after its watch is deleted (a watch's row is deleted; its checks and their charges stay).
ALTER TABLE watch_checks ADD COLUMN channel_url text;
ALTER TABLE watch_checks ADD COLUMN channel_title text;
UPDATE watch_checks c SET channel_url = w.channel_url, channel_title = w.channel_title FROM watches w WHERE w.id = c.watch_id;
