// One way to load what a page shows: a value (or a list read in cursor pages) with its loading
// state and its error, for the Loader and DataTable components. A later load owns the state: the
// answer of an earlier one that is still in flight is dropped, so changing a filter twice quickly
// never shows the first filter's rows.
import { ApiError } from './api.ts';

export interface LoadError {
  message: string;
  requestId: string | null;
}

export function loadError(error: unknown): LoadError {
  if (error instanceof ApiError) return { message: error.message, requestId: error.requestId };
  return { message: error instanceof Error ? error.message : String(error), requestId: null };
}

/** A value read by `fetcher`; `run()` reads it again (Refresh, Retry). */
export class Loadable<T> {
  value = $state<T | null>(null);
  loading = $state(false);
  error = $state<LoadError | null>(null);
  #runs = 0;
  readonly #fetcher: () => Promise<T>;

  constructor(fetcher: () => Promise<T>) {
    this.#fetcher = fetcher;
  }

  /** The value read, or null when this load failed or a later one replaced it. */
  async run(): Promise<T | null> {
    const mine = ++this.#runs;
    this.loading = true;
    this.error = null;
    try {
      const value = await this.#fetcher();
      if (mine !== this.#runs) return null;
      this.value = value;
      return value;
    } catch (error) {
      if (mine === this.#runs) this.error = loadError(error);
      return null;
    } finally {
      if (mine === this.#runs) this.loading = false;
    }
  }
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A list read newest first in cursor pages: `reload()` from the top, `more()` appends the next page. */
export class Paged<T> {
  items = $state<T[]>([]);
  nextCursor = $state<string | null>(null);
  /** True once the first page has arrived (before that, "0 shown" would be false). */
  loaded = $state(false);
  loading = $state(false);
  loadingMore = $state(false);
  error = $state<LoadError | null>(null);
  #runs = 0;
  readonly #fetch: (cursor: string | null) => Promise<Page<T>>;

  constructor(fetch: (cursor: string | null) => Promise<Page<T>>) {
    this.#fetch = fetch;
  }

  async reload(): Promise<void> {
    const mine = ++this.#runs;
    this.loading = true;
    this.error = null;
    try {
      const page = await this.#fetch(null);
      if (mine !== this.#runs) return;
      this.items = page.items;
      this.nextCursor = page.nextCursor;
      this.loaded = true;
    } catch (error) {
      if (mine === this.#runs) this.error = loadError(error);
    } finally {
      if (mine === this.#runs) this.loading = false;
    }
  }

  async more(): Promise<void> {
    if (!this.nextCursor || this.loadingMore) return;
    const mine = this.#runs;
    this.loadingMore = true;
    this.error = null;
    try {
      const page = await this.#fetch(this.nextCursor);
      if (mine !== this.#runs) return;
      this.items = [...this.items, ...page.items];
      this.nextCursor = page.nextCursor;
    } catch (error) {
      if (mine === this.#runs) this.error = loadError(error);
    } finally {
      this.loadingMore = false;
    }
  }
}
