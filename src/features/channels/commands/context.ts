/**
 * What every Channels command part shares: what the feature hands in (the operations, the book of channels, the tree,
 * the built-in receiver), the arguments a command may be given instead of asking, and the questions the commands ask
 * (the address and token, which channel).
 */
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import type { ChannelBook, ChannelRecord, WatchRequest } from '../model';
import type { ChannelOperations } from '../operations';
import { channelLabel } from '../tree/presentation';
import type { ChannelsNode, ChannelsTreeProvider } from '../tree/treeProvider';
import { addressProblem, tokenProblem, Translate } from '../validation';

/** Arguments a command may be given instead of asking (other commands, tests). */
export interface WatchOptions {
  readonly address?: string;
  readonly token?: string;
  /** How long the channel should live, in seconds (renewals ask the same); the service's default otherwise. */
  readonly lifeSeconds?: number;
}

export interface ChannelsCommandContext {
  readonly desk: DeskContext;
  readonly operations: ChannelOperations;
  readonly book: ChannelBook;
  readonly tree: ChannelsTreeProvider;
  /** The built-in receiver's address while it runs (offered as the default address). */
  readonly receiverAddress: () => string | undefined;
  startReceiver(): Promise<string>;
  stopReceiver(): Promise<void>;
  /** Asks for the Directory's admin scope when no session has it; false when the user declines. */
  ensureDirectoryScope(): Promise<boolean>;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function optionString(value: unknown, key: string): string | undefined {
  return isObject(value) && typeof value[key] === 'string' ? value[key] : undefined;
}

/** A row of the Calendar view that is a calendar (its node carries the calendar's list entry). */
export function calendarRow(value: unknown): { calendarId: string } | undefined {
  if (!isObject(value) || value.kind !== 'calendar' || !isObject(value.entry) || typeof value.entry.id !== 'string') return undefined;
  return { calendarId: value.entry.id };
}

/** The calendar id given: a Calendar row's, or `{ calendarId }`. */
export function calendarIdOf(value: unknown): string | undefined {
  return calendarRow(value)?.calendarId ?? optionString(value, 'calendarId');
}

export function isChannelNode(value: unknown): value is Extract<ChannelsNode, { kind: 'channel' }> {
  return isObject(value) && value.kind === 'channel' && isObject(value.record);
}

export class ChannelPrompts {
  readonly t: Translate;

  constructor(private readonly context: ChannelsCommandContext) {
    this.t = (message, ...args) => context.desk.vs.l10n.t(message, ...args);
  }

  private get vs(): typeof vscode {
    return this.context.desk.vs;
  }

  /** The address (the receiver's offered when running) and an optional token, from the options or asked. */
  async askRequest(options: unknown): Promise<WatchRequest | undefined> {
    let address = optionString(options, 'address');
    address ??= await this.ask(this.t('The HTTPS address that receives the notifications'), this.context.receiverAddress() ?? 'https://', (value) => addressProblem(value, this.t));
    if (address === undefined) return undefined;
    let token = optionString(options, 'token');
    if (token === undefined && optionString(options, 'address') === undefined) {
      token = await this.ask(this.t('A token sent with every notification (optional, up to 256 characters)'), '', (value) => tokenProblem(value, this.t), true);
      if (token === undefined) return undefined;
    }
    const lifeSeconds = isObject(options) && typeof options.lifeSeconds === 'number' ? options.lifeSeconds : undefined;
    return { address: address.trim(), ...(token ? { token } : {}), ...(lifeSeconds !== undefined ? { lifeMs: lifeSeconds * 1000 } : {}) };
  }

  async ask(prompt: string, value: string, validate: (value: string) => string | undefined, password = false): Promise<string | undefined> {
    return this.vs.window.showInputBox({ prompt, value, ignoreFocusOut: true, password, validateInput: validate });
  }

  async pick<T>(items: Array<{ label: string; description?: string; value: T }>, placeHolder: string): Promise<T | undefined> {
    return (await this.vs.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.value;
  }

  /** The row's channel, or one picked from the list. */
  async resolve(node: unknown, placeHolder: string): Promise<ChannelRecord | undefined> {
    if (isChannelNode(node)) return this.context.book.get(node.record.id) ?? node.record;
    if (isObject(node) && node.kind === 'notification' && isChannelNode(node.parent)) return this.context.book.get(node.parent.record.id);
    const records = this.context.book.list();
    if (records.length === 0) {
      void this.vs.window.showInformationMessage(this.t('There are no channels.'));
      return undefined;
    }
    return this.pick(records.map((record) => ({ label: channelLabel(record, this.t), description: record.id, value: record })), placeHolder);
  }
}
