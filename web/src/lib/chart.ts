// What the daily charts (BalanceChart, UsageChart) share: the axis scale and which days get a label.

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (at least 1): the top of the value axis. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Grid lines of a value axis topped at `max`: the middle too when it is a whole number. */
export function axisTicks(max: number): number[] {
  return max % 2 === 0 ? [0, max / 2, max] : [0, max];
}

/** The days that get a date under the axis: the first, the middle and the last (each once). */
export function labelledDays(count: number): number[] {
  return [...new Set([0, Math.floor((count - 1) / 2), count - 1])].filter((i) => i >= 0);
}
