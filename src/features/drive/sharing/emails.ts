/** The e-mail addresses typed into Add people: split, checked and de-duplicated before anything is sent (pure). */
import type { Translate } from '../../../shared/l10n';
import { nameInMessage } from '../../../core/text/names';

/** RFC 5321's limits: 64 characters before the @, 254 in all. */
const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;
/** The dot-atom local part and a host name with at least one dot (Drive shares with real mailboxes only). */
const ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export interface ParsedEmails {
  /** Valid addresses, lower-cased, in the order typed, each once. */
  readonly emails: string[];
  /** The pieces that are not addresses, as typed. */
  readonly invalid: string[];
}

export function isEmailAddress(text: string): boolean {
  const at = text.lastIndexOf('@');
  return text.length <= MAX_ADDRESS && at > 0 && at <= MAX_LOCAL && ADDRESS.test(text);
}

/**
 * Reads a list of addresses separated by commas, semicolons, spaces or new lines; `Name <address>` (as copied from
 * a mail client) counts as the address.
 */
export function parseEmails(text: string): ParsedEmails {
  // A set, not emails.includes: a pasted list of 46,000 addresses (1 MB) took 20 s to check, at every keystroke.
  const emails = new Set<string>();
  const invalid: string[] = [];
  const pieces = text.split(/[,;\n]+/).flatMap((piece) => {
    const named = /<([^<>]*)>\s*$/.exec(piece);
    return named ? [named[1]] : piece.split(/\s+/);
  });
  for (const raw of pieces) {
    const piece = raw.trim();
    if (piece === '') continue;
    if (!isEmailAddress(piece)) {
      invalid.push(piece);
      continue;
    }
    emails.add(piece.toLowerCase());
  }
  return { emails: [...emails], invalid };
}

/** Why the typed text cannot be sent yet (the input box's validation), or undefined when it can. */
export function emailsProblem(text: string, t: Translate): string | undefined {
  const { emails, invalid } = parseEmails(text);
  if (invalid.length === 1) return t('“{0}” is not an e-mail address.', nameInMessage(invalid[0] ?? ''));
  if (invalid.length > 1) return t('These are not e-mail addresses: {0}', nameInMessage(invalid.join(', ')));
  if (emails.length === 0) return t('Enter at least one e-mail address.');
  return undefined;
}
