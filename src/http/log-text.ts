// Logs a person reads: on a terminal (or LOG_FORMAT=text) each of pino's JSON lines is written as
// one line of text, `12:00:01 INFO  message  key=value …`. JSON stays the default elsewhere, for log
// collectors. Hand-written rather than pino-pretty: one line per record is all a terminal needs,
// and pino-pretty brings a dozen packages and a transport thread to every process.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, shown in its own place or not at all. */
const OWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'responseTime', 'err']);

interface Record_ {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

/** One JSON log line as text (a line that is not JSON is passed on as it is). */
export function formatLogLine(line: string): string {
  let entry: Record_;
  try {
    entry = JSON.parse(line) as Record_;
  } catch {
    return line;
  }
  const time = new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8);
  const level = (LEVELS[entry.level ?? 30] ?? String(entry.level)).padEnd(5);
  const parts = [`${time} ${level} ${entry.msg ?? ''}`];
  if (entry.req)
    parts.push(
      `${entry.req.method ?? ''} ${entry.req.url ?? ''}` +
        (entry.res?.statusCode !== undefined ? ` ${entry.res.statusCode}` : '') +
        (entry.responseTime !== undefined ? ` ${Math.round(entry.responseTime)} ms` : ''),
    );
  const rest = Object.entries(entry)
    .filter(([key]) => !OWN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (rest.length > 0) parts.push(rest.join(' '));
  const text = parts.join('  ');
  const error = entry.err?.stack ?? entry.err?.message;
  return `${error ? `${text}\n  ${error.replaceAll('\n', '\n  ')}` : text}\n`;
}

/** A pino destination writing each line as text to `out` (stdout by default). */
export function textLogStream(out: { write(text: string): unknown } = process.stdout): { write(line: string): void } {
  return {
    write(line) {
      out.write(formatLogLine(line.endsWith('\n') ? line.slice(0, -1) : line));
    },
  };
}

/** Whether logs are text: LOG_FORMAT=text, or auto (the default) with stdout a terminal. */
export function logsAsText(
  format: 'auto' | 'json' | 'text',
  stdoutIsTerminal = process.stdout.isTTY === true,
): boolean {
  return format === 'text' || (format === 'auto' && stdoutIsTerminal);
}
