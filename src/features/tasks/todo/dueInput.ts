/**
 * Due dates for "Track as Task", typed as people say them. An ISO date (or nothing) goes the Tasks commands'
 * way (parseDueInput, which checks the calendar: 2026-02-30 is refused); words go to chrono-node ("next
 * friday", "in 2 weeks", "end of month", "dec 3"), always forward: "friday" said on a Saturday is the coming
 * one. What chrono does not read falls back to parseDueInput's short forms ("3d"). No vscode here: messages go
 * through `t` (vscode.l10n.t from the command).
 */
import * as chrono from 'chrono-node';
import { DueInput, formatDate, parseDueInput } from '../../../core/text/dates';
import { english, Translate } from '../../../shared/l10n';

/** The prompt of the input; translate it with `t(NATURAL_DUE_HELP)`. */
export const NATURAL_DUE_HELP = 'A due date, e.g. "next friday", "in 2 weeks", "dec 3" or 2026-12-03. Leave empty for none.';

/** What the user typed, read against `today` (their local day): a date, no date, or why it is not one. */
export function parseNaturalDue(input: string, today: Date, t: Translate = english): DueInput {
  const trimmed = input.trim();
  if (trimmed === '' || /^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return parseDueInput(trimmed, today, t);
  // Noon as the reference: chrono's "tomorrow" from 23:59 must not slip a day through a time zone offset.
  const reference = new Date(today.getFullYear(), today.getMonth(), today.getDate(), 12);
  const result = chrono.parse(input, reference, { forwardDate: true }).at(0);
  // The whole answer must be a date: "fix the bug" has none, and "call bob friday" is a title, not a date.
  if (!result || result.text.trim().length < trimmed.length - 1) {
    const short = parseDueInput(trimmed, today, t);
    return short.kind !== 'invalid' ? short : { kind: 'invalid', message: t('"{0}" is not a date Desk understands. {1}', trimmed, t(NATURAL_DUE_HELP)) };
  }
  return { kind: 'date', date: formatDate(result.start.date()) };
}
