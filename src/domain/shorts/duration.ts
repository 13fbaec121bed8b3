// ISO 8601 durations as the Data API writes them in videos.contentDetails.duration: PT59S, PT1M5S,
// PT1H2M3S, P1DT2H, P0D (a live or just-uploaded video), occasionally weeks (P1W).
const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Seconds in an ISO 8601 duration, or undefined when it is not one (years and months are not: their length varies). */
export function parseIsoDuration(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const match = ISO_DURATION.exec(value.trim().toUpperCase());
  // "P" and "PT" alone are not durations.
  if (!match || /^PT?$/.test(value.trim().toUpperCase()) || value.trim().toUpperCase().endsWith('T')) return undefined;
  const [, weeks, days, hours, minutes, seconds] = match;
  const n = (part: string | undefined) => (part === undefined ? 0 : Number(part));
  return Math.round(n(weeks) * 604_800 + n(days) * 86_400 + n(hours) * 3600 + n(minutes) * 60 + n(seconds));
}
