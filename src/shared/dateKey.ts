/** The calendar date of an instant in an IANA zone, for the extension's clock and the emulator's demo seed alike. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** en-CA writes a date as YYYY-MM-DD; one formatter per zone (building one costs more than formatting with it). */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
    try {
      formatter = new Intl.DateTimeFormat('en-CA', { ...options, timeZone });
    } catch {
      // A zone Intl does not know reads as UTC, never an exception while drawing a row.
      formatter = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: 'UTC' });
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `YYYY-MM-DD` of the instant `ms` in `timeZone` (UTC for a zone Intl does not know). */
export function dateKeyIn(ms: number, timeZone: string): string {
  return formatterFor(timeZone).format(new Date(ms));
}
