// Which failures were written as a request row: the requests log counts the other refusals
// separately (rejections.ts), so a call is never both listed and counted.
const recorded = new WeakSet<object>();

export function markRecorded(error: object): void {
  recorded.add(error);
}

export function wasRecorded(error: unknown): boolean {
  return typeof error === 'object' && error !== null && recorded.has(error);
}
