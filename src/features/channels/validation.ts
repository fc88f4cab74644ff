/** Checks what the user typed for a watch (address, token, channel id) before anything is sent, and makes channel ids (no vscode). */
import { randomUUID } from 'node:crypto';
import { CHANNEL_ID_PATTERN, DirectoryUserEvent, MAX_CHANNEL_ID, MAX_CHANNEL_TOKEN } from '../../shared/schemas/channels';

/** Formats a message with `{0}` placeholders: vscode.l10n.t in the extension, a plain substitution in tests. */
import type { Translate } from '../../shared/l10n';

export type { Translate };

/** Why an address cannot receive notifications, or undefined when it can. */
export function addressProblem(value: string, t: Translate): string | undefined {
  const text = value.trim();
  if (text === '') return t('Enter the HTTPS address that receives the notifications.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return t('"{0}" is not an address.', text.slice(0, 100));
  }
  if (url.protocol !== 'https:') return t('The address must start with https:// (Google delivers notifications over HTTPS only).');
  if (url.username !== '' || url.password !== '') return t('The address must not contain a user name or password.');
  if (url.hash !== '') return t('The address must not contain a #fragment.');
  return undefined;
}

/**
 * The Drive file id in what the user typed: an id as it is, or the id inside a link copied from Drive's web pages
 * (…/file/d/<id>/view, …/document/d/<id>/edit, …open?id=<id>). Undefined when there is none.
 */
export function driveFileIdOf(value: string): string | undefined {
  const text = value.trim();
  if (/^[A-Za-z0-9_-]+$/.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const inPath = /\/d\/([A-Za-z0-9_-]+)/.exec(url.pathname)?.[1];
  const inQuery = url.searchParams.get('id');
  const id = inPath ?? inQuery ?? undefined;
  return id && /^[A-Za-z0-9_-]+$/.test(id) ? id : undefined;
}

/** Why the text names no Drive file, or undefined. */
export function driveFileIdProblem(value: string, t: Translate): string | undefined {
  if (value.trim() === '') return t('Enter a file id.');
  if (driveFileIdOf(value) === undefined) return t('Enter a Drive file id (letters, digits, - and _) or a link to the file from drive.google.com.');
  return undefined;
}

/** Why the text is no domain name (what the Directory API's `domain` takes: example.com, not an address), or undefined. */
export function directoryDomainProblem(value: string, t: Translate): string | undefined {
  const text = value.trim();
  if (text === '') return t('Enter a domain, e.g. example.com.');
  if (/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/i.test(text)) return undefined;
  if (/[:/@]/.test(text)) return t('Enter the domain alone, e.g. example.com (no https://, path or e-mail address).');
  return t('"{0}" is not a domain name, e.g. example.com.', text.slice(0, 100));
}

/** What each Directory users event means, for the picker (the API's name goes beside it). */
export function directoryEventWords(event: DirectoryUserEvent, t: Translate): string {
  switch (event) {
    case 'add': return t('A user is added');
    case 'delete': return t('A user is deleted');
    case 'makeAdmin': return t('A user becomes or stops being an administrator');
    case 'undelete': return t('A deleted user is restored');
    case 'update': return t('A user\'s details change');
  }
}

/** Why a token cannot be used, or undefined (empty means no token). */
export function tokenProblem(value: string, t: Translate): string | undefined {
  if (value.length > MAX_CHANNEL_TOKEN) return t('The token may have at most {0} characters ({1} now).', MAX_CHANNEL_TOKEN, value.length);
  // It travels as an HTTP header: an emoji or a line break there makes every notification fail, unseen.
  if (/[^\x20-\x7E]/.test(value)) return t('The token is sent as an HTTP header: use letters, digits, spaces and punctuation only (for example key=value&other=value).');
  return undefined;
}

/** Why a channel id cannot be used, or undefined. */
export function channelIdProblem(value: string, t: Translate): string | undefined {
  if (value === '') return t('A channel needs an id.');
  if (value.length > MAX_CHANNEL_ID) return t('A channel id may have at most {0} characters ({1} now).', MAX_CHANNEL_ID, value.length);
  if (!CHANNEL_ID_PATTERN.test(value)) return t('A channel id may contain only letters, digits and - _ + / =.');
  return undefined;
}

/** A new channel id: unique, well under 64 characters, only allowed characters. */
export function newChannelId(random: () => string = randomUUID): string {
  return `desk-${random()}`;
}

/** What a watch request needs from the user, checked; throws a RangeError naming the first problem. */
export function checkedWatchInput(input: { address: string; token?: string | undefined; id: string }, t: Translate): { id: string; address: string; token?: string } {
  const address = input.address.trim();
  const problem = addressProblem(address, t) ?? tokenProblem(input.token ?? '', t) ?? channelIdProblem(input.id, t);
  if (problem) throw new RangeError(problem);
  return { id: input.id, address, ...(input.token ? { token: input.token } : {}) };
}
