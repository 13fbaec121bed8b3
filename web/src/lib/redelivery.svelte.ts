// A request's or a batch's page: it reads itself again every 2.5 s while work is in flight, and
// for 30 s after a redelivery was queued (until the attempt shows); Redeliver queues one and says so.
import { describeError } from './api.ts';

export class Redelivery {
  busy = $state(false);
  message = $state('');
  kind = $state<'success' | 'error'>('success');
  #until = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #reload: () => unknown;

  constructor(reload: () => unknown) {
    this.#reload = reload;
  }

  /** After a read: read again shortly while `inFlight`, or while a queued redelivery may still show. */
  schedule(inFlight: boolean): void {
    clearTimeout(this.#timer);
    if (inFlight || Date.now() < this.#until) this.#timer = setTimeout(() => this.#reload(), 2500);
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  async run(queue: () => Promise<{ attempt: number }>, said: (attempt: number) => string): Promise<void> {
    this.busy = true;
    this.message = '';
    try {
      const { attempt } = await queue();
      this.kind = 'success';
      this.message = said(attempt);
      this.#until = Date.now() + 30_000;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#reload(), 1500);
    } catch (err) {
      this.kind = 'error';
      this.message = describeError(err);
    } finally {
      this.busy = false;
    }
  }
}
