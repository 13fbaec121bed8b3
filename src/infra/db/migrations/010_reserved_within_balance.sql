-- Reserved credits are never spent (#13): a request in progress holds its reservation until it
-- settles, and every statement that takes credits checks balance − reserved first (all of them in
-- src/domain/credits/). As `credit_balance >= 0` makes an overdraw impossible, this makes spending
-- reserved credits impossible, whatever a statement gets wrong. A database where some account
-- already breaks it keeps the check for every later change (NOT VALID) and `doctor` names the
-- account, instead of the service refusing to start.
ALTER TABLE accounts ADD CONSTRAINT accounts_reserved_within_balance CHECK (credits_reserved <= credit_balance) NOT VALID;
DO $$
BEGIN
  ALTER TABLE accounts VALIDATE CONSTRAINT accounts_reserved_within_balance;
EXCEPTION WHEN check_violation THEN
  RAISE WARNING 'some accounts hold more reserved credits than their balance: run doctor';
END
$$;
