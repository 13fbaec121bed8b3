-- Issue #13: every settled request writes a ledger entry and a request record, and their foreign
-- keys to accounts were a quarter of the embedded database's work per request (PGlite runs each
-- check as a SELECT … FOR KEY SHARE from a trigger, per row: ~28 µs of ~115 per request, measured
-- in bench/reading.md). Both checks are redundant by construction, so they are dropped and what
-- they guaranteed is kept as follows:
-- - credit_ledger: every entry is written by the statement or transaction that UPDATEs the
--   account's balance first (all of that SQL is in credits/ledger.ts), so the account exists and
--   its row is locked until the entry commits;
-- - shorts_requests: a settled request is inserted only for an account its statement charged
--   (joined with the UPDATE's RETURNING); the other paths record requests of the account that
--   authenticated them;
-- - and accounts are never deleted (an operator disables one, disabled_at; its history stays): the
--   triggers below refuse a DELETE and a TRUNCATE, so no entry or record can be left naming a
--   missing account; `doctor` checks that none does.
-- The other tables keep their foreign keys: a reservation or a delivery attempt is written for some
-- requests (those that read upstream or have a webhook), not for every one served from the cache.
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_account_id_fkey;
ALTER TABLE shorts_requests DROP CONSTRAINT shorts_requests_account_id_fkey;
CREATE FUNCTION accounts_are_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'accounts are never deleted (disable the account instead): the ledger and the request records name it'
    USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER accounts_are_never_deleted BEFORE DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION accounts_are_never_deleted();
CREATE TRIGGER accounts_are_never_truncated BEFORE TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION accounts_are_never_deleted();
