// The whole life of one piece of work that spends upstream quota on an account's behalf: a
// synchronous shorts request, a webhook request's fetch job, a watch check, a watch's creation.
// One MeteredWork owns its quota meter (quota-meter.ts) from the hold it opens with to the end it
// is settled as, so no caller has to drive the meter's steps in the right order on every path:
//
//   open      the hold the work starts from: the minimum price reserved now (402 at once when the
//             balance cannot cover it), or credits already held under the work's id;
//   extend    the work asks before every upstream call (take), says when the price is known
//             (commit) and whether the balance covers more (affords);
//   settle    exactly once: succeeded() counts the units as paid (in the caller's charging statement
//             when it has one), failed() as unpaid — or as the service's loss when the failure is
//             the service's own after the price was committed (isOwnFailure): an outage must not
//             spend an account's allowance of unpaid work;
//   release   a failed work's hold is released with it, unless it outlives the attempt (a queued
//             request keeps its hold for the retry; its settlement releases it).
//
// A failure inside the lifecycle itself (the database refusing the statement that counts the units)
// is never swallowed: the units are settled as the service's loss and the failure is logged with
// the work's request id. `run(fn)` settles on every exit path: fn's result as a success, its throw
// as a failure.
import type { Queryable } from '../../infra/db/database.ts';
import { releaseReservation } from '../credits/reservations.ts';
import { priceFor } from '../shorts/pricing.ts';
import type { CollectBudget } from '../shorts/shorts-collector.ts';
import { type MeterInput, type PaidUnits, QuotaMeter, type QuotaSettings } from './quota-meter.ts';

export interface WorkInput {
  db: Queryable;
  accountId: string;
  /** The id the work's credits are held under (a request's id, a check's id, a creation's hold id). */
  requestId: string;
  settings: QuotaSettings;
  now: () => number;
  /** When the hold lapses should the work's process die before it settles. */
  reservationExpiresAt: Date;
  /**
   * Whether a failed work's hold is released with it. False for a hold that outlives one attempt:
   * a queued request's, which its retry resumes and its settlement releases.
   */
  releaseOnFailure: boolean;
  /** The most credits the work may hold (a request's maxCredits): its reservation never grows past it. */
  maxCredits?: number | undefined;
}

/** Where a work's credits come from when it opens. */
export type Opening =
  /** Reserve the minimum price now (`reserveWith`: a caller's transaction, the work's db by default). */
  | { reserve: 'minimum'; reserveWith?: Queryable }
  /** Credits already held under the work's id (reserved at acceptance, or just now by the caller). */
  | { held: () => Promise<number> | number; paidFrom?: never }
  /**
   * Credits held under the work's id that already pay for its whole price (a watch check): the
   * work starts in its paid phase, every unit counted against them. `paidFrom` says what the hold
   * pays for, in the 402 a hold too small to commit to would answer (the whole hold never is).
   */
  | { held: () => Promise<number> | number; paidFrom: string };

export class MeteredWork {
  readonly requestId: string;
  readonly accountId: string;
  #input: WorkInput;
  #opening: Opening;
  #meter: QuotaMeter | undefined;
  #opened: Promise<this> | undefined;
  #settled = false;

  /** A work not opened yet: open() opens it (when it turns out to need upstream work at all). */
  constructor(input: WorkInput, opening: Opening) {
    this.#input = input;
    this.#opening = opening;
    this.requestId = input.requestId;
    this.accountId = input.accountId;
  }

  /** Opens a work now (402 when its minimum cannot be reserved: nothing to settle then). */
  static open(input: WorkInput, opening: Opening): Promise<MeteredWork> {
    return new MeteredWork(input, opening).open();
  }

  /** Opens the work (once; later calls return the same). A refused opening leaves nothing to settle. */
  open(): Promise<this> {
    this.#opened ??= this.#openMeter().then((meter) => {
      this.#meter = meter;
      return this;
    });
    return this.#opened;
  }

  /** Whether the work opened: it spends quota, and must be settled. */
  get opened(): boolean {
    return this.#meter !== undefined;
  }

  async #openMeter(): Promise<QuotaMeter> {
    const input: Omit<MeterInput, 'reserved'> = {
      db: this.#input.db,
      accountId: this.accountId,
      requestId: this.requestId,
      settings: this.#input.settings,
      now: this.#input.now,
      reservationExpiresAt: this.#input.reservationExpiresAt,
      ceiling: this.#input.maxCredits,
    };
    const opening = this.#opening;
    if ('reserve' in opening) return QuotaMeter.open(input, opening.reserveWith);
    const reserved = await opening.held();
    const meter = new QuotaMeter({ ...input, reserved });
    // The price is known before the first call: every unit is paid from the hold.
    if (opening.paidFrom !== undefined) await meter.commit(reserved, opening.paidFrom);
    return meter;
  }

  get #open(): QuotaMeter {
    if (!this.#meter) throw new Error(`metered work ${this.requestId} used before it opened`);
    return this.#meter;
  }

  // The work's side: what upstream calls and the steps that learn the price ask.

  /** Asked before every upstream call with the units it costs (YoutubeClient.metered). */
  take = (units: number): Promise<void> => this.#open.take(units);

  /** Whether the work could still spend `units` unpaid before its price is known (a 100-unit search). */
  canSpendUnpaid = (units: number): Promise<boolean> => this.#open.canProbe(units);

  /** The price is known: hold `credits` for it (402 quoting `why` when the balance cannot). */
  commit(credits: number, why: string): Promise<void> {
    return this.#open.commit(credits, why);
  }

  /** Whether the hold covers (or could grow to) a price of `credits`. */
  affords(credits: number): Promise<boolean> {
    return this.#open.ensureCredits(credits);
  }

  /** Units spent so far. */
  get spent(): number {
    return this.#meter?.spent ?? 0;
  }

  /** Credits the work holds now. */
  get reservedCredits(): number {
    return this.#open.reservedCredits;
  }

  /** The price of a result of `items` shorts: the item price, or what the units cost if more. */
  price(items: number): number {
    return this.#open.price(items);
  }

  /**
   * The budget a listing of the channel's Shorts reads under (shorts-collector.ts, tab-collector.ts):
   * with the channel's size known from its first page (`total`) the whole price is held at once,
   * projected from the pages and detail batches still to read; a window, or a listing that gives no
   * total, holds the minimum and grows the hold as it reads, page by page.
   */
  listingBudget(listing: { oldestDate: number | undefined; cap: number; pageSize: number }): CollectBudget {
    const { pricing, unitsPerCredit } = this.#input.settings;
    return {
      onFirstPage: async (total) => {
        if (listing.oldestDate !== undefined || total === undefined) {
          return this.commit(pricing.minimumCredits, 'Reading this channel costs at least');
        }
        const expected = Math.min(total, listing.cap);
        const blocks = Math.ceil(expected / listing.pageSize);
        // the rest of the pages, and one details call per page
        const projectedUnits = this.spent + Math.max(0, blocks - 1) + blocks;
        const credits = Math.max(priceFor(expected, pricing), Math.ceil(projectedUnits / unitsPerCredit));
        await this.commit(
          credits,
          `This channel has ${total} shorts; ` +
            `reading ${expected === total ? 'all of them' : `the newest ${expected}`} costs`,
        );
      },
      allowItems: (items) => this.affords(priceFor(items, pricing)),
    };
  }

  // The work's end: settled once, on whichever path it ends.

  /**
   * The work succeeded: its units are paid. `record` counts them in the caller's own statement (the
   * one that charges the work); without it they are counted on their own. Should counting fail, the
   * units are settled as the service's loss (logged) and the failure is thrown to the caller.
   */
  async succeeded<T = void>(record?: (units: PaidUnits) => Promise<T>): Promise<T | undefined> {
    const meter = this.#meter;
    if (!meter || this.#settled) return undefined;
    try {
      const result = await (record ? meter.settlePaid(record) : meter.finishPaid());
      this.#settled = true;
      return result as T | undefined;
    } catch (error) {
      await this.failed(error);
      throw error;
    }
  }

  /**
   * The work failed with `cause` (none: it ended without an answer, e.g. another run recorded it):
   * its hold is released (unless it outlives the attempt) and its units count as unpaid — as the
   * service's loss when the cause is the service's own. Never throws: the caller answers with its
   * own failure; trouble settling is logged with the request id.
   */
  async failed(cause?: unknown): Promise<void> {
    const meter = this.#meter;
    if (!meter || this.#settled) return;
    this.#settled = true;
    if (this.#input.releaseOnFailure)
      await releaseReservation(this.#input.db, this.requestId).catch((error: unknown) =>
        this.#log(error, 'releasing the hold of failed work failed; it lapses at its expiry'),
      );
    await meter
      .finishUnpaid(cause)
      .catch((error: unknown) =>
        this.#log(error, "counting the units of failed work failed; they are the service's loss"),
      );
  }

  /** Runs `fn` on the opened work and settles it: a result as a success, a throw as a failure. */
  async run<T>(fn: (work: this) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await fn(this);
    } catch (error) {
      await this.failed(error);
      throw error;
    }
    await this.succeeded();
    return result;
  }

  #log(error: unknown, what: string): void {
    const log =
      this.#input.settings.onSettleFailure ??
      ((failure) => console.error(`[${failure.requestId}] ${failure.what}:`, failure.error));
    log({ requestId: this.requestId, accountId: this.accountId, error, what });
  }
}
