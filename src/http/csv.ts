// CSV (RFC 4180) for downloads that open in spreadsheets. A text cell that a spreadsheet would
// read as a formula (=, +, -, @, tab, carriage return first) is prefixed with ' (OWASP "CSV
// injection"), so a channel title or note cannot run anything; numbers are written as numbers.
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null;

export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
