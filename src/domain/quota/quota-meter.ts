// The quota meter of one request: every upstream call asks it first, with the units it will cost.
//
// Upstream work comes in two phases (docs/quota.md):
// - the probe (resolving the address, channels.list, the first Shorts playlist page): its units are
//   taken from the account's daily allowance of unpaid work before they are spent, because the
//   price is not known yet and the request may still fail (no such channel) or be refused (402);
// - once the first page tells how many shorts there are, the request commits: credits for the whole
//   price are reserved (or 402), the probe's units leave the allowance (the credits pay for them),
//   and every further call must fit in what the reservation pays for (UNITS_PER_CREDIT each).
//   When a call does not fit, the reservation grows if the balance allows; otherwise the call is
//   refused with BudgetExhausted and the request stops where it is.
// So the units spent on behalf of an account never exceed what its credits pay for plus its allowance.
import type { Queryable } from '../../infra/db/database.ts';
import { AppError, isAppError } from '../../errors.ts';
import { reserveCredits } from '../credits/reservations.ts';
import { priceFor, type PriceSettings } from '../shorts/pricing.ts';
import { accountQuotaDay, recordLostUnits, recordUnits, returnAllowance, takeAllowance } from './account-quota.ts';
import { innertubeFailureKind } from '../shorts/innertube-source.ts';
import { quotaDay, secondsToNextQuotaDay } from './quota-day.ts';
import { createProbeGate, type ProbeGate } from './probe-gate.ts';

export interface QuotaSettings {
  /** Upstream units one credit pays for. */
  unitsPerCredit: number;
  /** Unpaid units an account may cause per quota day. */
  allowanceUnits: number;
  pricing: PriceSettings;
  /** Logs metered work that could not settle (metered-work.ts); console.error when absent. */
  onSettleFailure?: (failure: { requestId: string; accountId: string; error: unknown; what: string }) => void;
}

/** Upstream units a request spent and paid for, on the quota day they count in. */
export interface PaidUnits {
  day: string;
  units: number;
}

/**
 * A failure on the service's own side, which no customer can cause: its database or Redis
 * unavailable, or anything that is not one of the error catalog's answers (an unexpected error).
 */
export function isOwnFailure(error: unknown): boolean {
  if (isAppError(error)) return error.code === 'SERVICE_UNAVAILABLE' || error.code === 'INTERNAL_ERROR';
  return !(error instanceof BudgetExhausted) && !innertubeFailureKind(error);
}

/** A paid-phase call the reservation cannot cover and the balance cannot extend. */
export class BudgetExhausted extends Error {}

export interface MeterInput {
  db: Queryable;
  accountId: string;
  requestId: string;
  settings: QuotaSettings;
  now: () => number;
  /** When the reservation lapses if the request never settles (a crashed process). */
  reservationExpiresAt: Date;
  /** Credits already reserved for this request (a webhook request reserves at acceptance). */
  reserved: number;
  /**
   * The most the reservation may grow to: the request's maxCredits. Beyond it a call is refused as
   * the balance refuses it (BudgetExhausted: the result stops there), and a price above it is a 402.
   */
  ceiling?: number | undefined;
  /** How many of the account's probes run at once (probe-gate.ts); the process's own by default. */
  probes?: ProbeGate;
}

/** This process's probe gate (probe-gate.ts): every meter shares it unless given its own. */
const PROBES = createProbeGate();

export class QuotaMeter {
  readonly accountId: string;
  readonly requestId: string;
  #input: MeterInput;
  #phase: 'probe' | 'paid' = 'probe';
  #reserved: number;
  #spent = 0;
  /** Units of this request counted in account_quota_days.units / .unpaid_units so far. */
  #recorded = 0;
  #unpaidRecorded = 0;
  #day: string;
  #turn: Promise<void> = Promise.resolve();
  /** The probe's units leaving the allowance (commit), awaited before the request's end is recorded. */
  #returning: Promise<void> = Promise.resolve();
  /**
   * The probe's place at the gate, asked for at its first call and left when it commits or ends.
   * The promise itself is kept, set before any await: a probe's first calls may start together
   * (the channel and the first page of a known channel), and both must wait for one place: were
   * each to take its own, the second would never be given back.
   */
  #gate: Promise<() => void> | undefined;
  #leftGate = false;

  constructor(input: MeterInput) {
    this.#input = input;
    this.accountId = input.accountId;
    this.requestId = input.requestId;
    this.#reserved = input.reserved;
    this.#day = quotaDay(input.now());
  }

  /** Reserves the minimum price and opens a meter; 402 at once when the balance cannot cover it. */
  /** `reserveWith`: where the first hold is taken (a caller's transaction), the meter's db by default. */
  static async open(input: Omit<MeterInput, 'reserved'>, reserveWith: Queryable = input.db): Promise<QuotaMeter> {
    const minimum = Math.max(1, input.settings.pricing.minimumCredits);
    const ok = await reserveCredits(reserveWith, {
      accountId: input.accountId,
      requestId: input.requestId,
      credits: minimum,
      expiresAt: input.reservationExpiresAt,
      now: new Date(input.now()),
    });
    if (!ok)
      throw await insufficient(
        reserveWith,
        input.accountId,
        minimum,
        'A request that reads the video platform costs at least',
      );
    return new QuotaMeter({ ...input, reserved: minimum });
  }

  get spent(): number {
    return this.#spent;
  }

  get reservedCredits(): number {
    return this.#reserved;
  }

  get committed(): boolean {
    return this.#phase === 'paid';
  }

  /** What the account still has of today's allowance, as last known (for messages and choices). */
  async allowanceLeft(): Promise<number> {
    const day = await accountQuotaDay(this.#input.db, this.accountId, this.#day);
    return Math.max(0, this.#input.settings.allowanceUnits - day.unpaidUnits);
  }

  /** Asked before every upstream call. */
  take = async (units: number): Promise<void> => {
    const { settings, db } = this.#input;
    if (this.#phase === 'probe') {
      this.#gate ??= (this.#input.probes ?? PROBES).enter(this.accountId, () => this.allowanceLeft());
      await this.#gate;
      if (!(await takeAllowance(db, this.accountId, this.#day, units, settings.allowanceUnits))) {
        const seconds = secondsToNextQuotaDay(this.#input.now());
        throw new AppError(
          'QUOTA_ALLOWANCE_EXHAUSTED',
          `This account has spent today's allowance of ${settings.allowanceUnits} upstream units for work no ` +
            'credit pays for (failed lookups, refused requests); new channels can be read again after midnight ' +
            'America/Los_Angeles. Cached results are still served.',
          { headers: { 'retry-after': String(seconds) } },
        );
      }
      this.#spent += units;
      this.#recorded += units;
      this.#unpaidRecorded += units;
      return;
    }
    // Concurrent calls (the next page travels with a details batch) extend the reservation in turn.
    const turn = this.#turn.then(async () => {
      const needed = Math.ceil((this.#spent + units) / settings.unitsPerCredit);
      if (needed > this.#reserved && !(await this.#extendTo(needed))) throw new BudgetExhausted();
      this.#spent += units;
    });
    // The chain only orders the turns: this call's own error reaches its caller through `await turn`.
    this.#turn = turn.catch(() => {});
    await turn;
  };

  /** Whether the probe could still spend `units` unpaid (e.g. a 100-unit search). */
  async canProbe(units: number): Promise<boolean> {
    return this.#phase === 'probe' && (await this.allowanceLeft()) >= units;
  }

  /**
   * The price is known: reserve `credits` (at least what the units so far cost), or 402 quoting it.
   * From here on the credits pay for the probe's units too.
   */
  async commit(credits: number, why: string): Promise<void> {
    const target = Math.max(credits, Math.ceil(this.#spent / this.#input.settings.unitsPerCredit));
    const ceiling = this.#input.ceiling;
    if (ceiling !== undefined && target > ceiling)
      throw new AppError(
        'INSUFFICIENT_CREDITS',
        `${why} ${target} credit${target === 1 ? '' : 's'}, more than this request's maxCredits (${ceiling}).`,
      );
    if (target > this.#reserved && !(await this.#extendTo(target))) {
      throw await insufficient(this.#input.db, this.accountId, target, why, this.#reserved);
    }
    this.#phase = 'paid';
    // The next upstream call need not wait for this statement (a round trip to the database on the
    // cold path's critical path); the request's end waits for it before recording its units.
    // Should it fail, the probe's units stay counted as unpaid (logged): the allowance errs on the safe side.
    // The probe leaves the gate once its units are back in the allowance, for the next to count on them.
    this.#returning = returnAllowance(this.#input.db, this.accountId, this.#day, this.#unpaidRecorded)
      .catch((error: unknown) =>
        this.#input.settings.onSettleFailure?.({
          requestId: this.requestId,
          accountId: this.accountId,
          error,
          what: "returning a committed probe's units to the allowance failed; they stay counted as unpaid",
        }),
      )
      .finally(() => this.#leaveGate());
    this.#unpaidRecorded = 0;
  }

  /** Grows the reservation so it covers a price of `credits`; false when the balance cannot. */
  async ensureCredits(credits: number): Promise<boolean> {
    return credits <= this.#reserved || this.#extendTo(credits);
  }

  /** The price of a result of `items` shorts: the item price, or what the units cost if more. */
  price(items: number): number {
    return Math.max(
      priceFor(items, this.#input.settings.pricing),
      Math.ceil(this.#spent / this.#input.settings.unitsPerCredit),
    );
  }

  /**
   * The request succeeded: `record` writes its units not yet counted, as paid, to the account's quota
   * day — in the statement that charges the request (one statement fewer between the last upstream
   * answer and the response, chargeAndRecord's `paidUnits`) or on their own (finishPaid).
   * Once it resolved they count as recorded; if it throws they do not (finishUnpaid counts them).
   */
  async settlePaid<T>(record: (units: PaidUnits) => Promise<T>): Promise<T> {
    const units: PaidUnits = { day: this.#day, units: this.#spent - this.#recorded };
    try {
      const result = await record(units);
      this.#recorded += units.units;
      await this.#returning;
      return result;
    } finally {
      this.#leaveGate();
    }
  }

  /** The request succeeded: its units are paid. */
  async finishPaid(): Promise<void> {
    await this.settlePaid(({ day, units }) => recordUnits(this.#input.db, this.accountId, day, units, 0));
  }

  /**
   * The request failed: every unit it spent is unpaid (probe units were checked against the
   * allowance). `cause`: when it is the service's own failure (its stores, an unexpected error;
   * isOwnFailure) after the price was committed, those units are the service's loss, not the
   * account's: they do not count against its allowance (else a PostgreSQL restart or a full disk
   * would lock every busy account out of new channels until midnight).
   */
  async finishUnpaid(cause?: unknown): Promise<void> {
    try {
      await this.#returning;
      const ours = this.#phase === 'paid' && cause !== undefined && isOwnFailure(cause);
      await (ours ? recordLostUnits : recordUnits)(
        this.#input.db,
        this.accountId,
        this.#day,
        this.#spent - this.#recorded,
        this.#spent - this.#unpaidRecorded,
      );
      this.#recorded = this.#spent;
      this.#unpaidRecorded = this.#spent;
    } finally {
      this.#leaveGate();
    }
  }

  /** Gives the probe's place at the gate back (once it has one; idempotent). */
  #leaveGate(): void {
    if (!this.#gate || this.#leftGate) return;
    this.#leftGate = true;
    // A gate that failed (its allowance read did) holds no place: nothing to give back.
    void this.#gate.then(
      (leave) => leave(),
      () => {},
    );
  }

  async #extendTo(credits: number): Promise<boolean> {
    if (this.#input.ceiling !== undefined && credits > this.#input.ceiling) return false;
    const extra = credits - this.#reserved;
    const ok = await reserveCredits(this.#input.db, {
      accountId: this.accountId,
      requestId: this.requestId,
      credits: extra,
      expiresAt: this.#input.reservationExpiresAt,
      now: new Date(this.#input.now()),
    });
    if (ok) this.#reserved = credits;
    return ok;
  }
}

async function insufficient(
  db: Queryable,
  accountId: string,
  credits: number,
  why: string,
  alreadyReserved = 0,
): Promise<AppError> {
  const [row] = await db.query<{ credit_balance: number; credits_reserved: number }>(
    'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
    [accountId],
  );
  const available = (row?.credit_balance ?? 0) - (row?.credits_reserved ?? 0) + alreadyReserved;
  const held = (row?.credits_reserved ?? 0) - alreadyReserved;
  return new AppError(
    'INSUFFICIENT_CREDITS',
    `${why} ${credits} credit${credits === 1 ? '' : 's'}; ${Math.max(0, available)} ` +
      `available${held > 0 ? ` (${held} held by requests in progress)` : ''}.`,
  );
}
