/**
 * The Channels commands as one id → handler table behind the one wrapper: watch all Drive changes, a Drive file, a
 * calendar's events or sharing, the calendar list, Calendar settings or the directory's users (asking for the HTTPS address and an optional token, checked before
 * sending), stop and renew a channel, and start or stop the built-in receiver. Each resolves to what it made or changed.
 */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import type { DeskContext } from '../../../core/deskContext';
import { DIRECTORY_USER_EVENTS, DirectoryUserEvent } from '../../../shared/schemas/channels';
import type { ChannelBook, ChannelRecord, WatchRequest, WatchTarget } from '../model';
import type { ChannelOperations } from '../operations';
import { channelLabel } from '../tree/presentation';
import type { ChannelsNode, ChannelsTreeProvider } from '../tree/treeProvider';
import { addressProblem, tokenProblem, Translate } from '../validation';
import { CHANNELS_COMMAND } from '../../../config/commandIds';

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function optionString(value: unknown, key: string): string | undefined {
  return isObject(value) && typeof value[key] === 'string' ? value[key] : undefined;
}

/** A row of the Calendar view that is a calendar (its node carries the calendar's list entry). */
function calendarRow(value: unknown): { calendarId: string } | undefined {
  if (!isObject(value) || value.kind !== 'calendar' || !isObject(value.entry) || typeof value.entry.id !== 'string') return undefined;
  return { calendarId: value.entry.id };
}

/** The calendar id given: a Calendar row's, or `{ calendarId }`. */
function calendarIdOf(value: unknown): string | undefined {
  return calendarRow(value)?.calendarId ?? optionString(value, 'calendarId');
}

function isChannelNode(value: unknown): value is Extract<ChannelsNode, { kind: 'channel' }> {
  return isObject(value) && value.kind === 'channel' && isObject(value.record);
}

export class ChannelsCommands {
  private readonly t: Translate;

  constructor(private readonly context: ChannelsCommandContext) {
    this.t = (message, ...args) => context.desk.vs.l10n.t(message, ...args);
  }

  private get vs(): typeof vscode {
    return this.context.desk.vs;
  }

  register(): vscode.Disposable[] {
    return registerCommands(this.context.desk, {
      [CHANNELS_COMMAND.watchDriveChanges]: (options?: unknown) => this.watchDriveChanges(options),
      [CHANNELS_COMMAND.watchDriveFile]: (target?: unknown) => this.watchDriveFile(target),
      [CHANNELS_COMMAND.watchCalendarEvents]: (options?: unknown) => this.watchCalendarEvents(options),
      [CHANNELS_COMMAND.watchCalendar]: (options?: unknown) => this.watchCalendar(options),
      [CHANNELS_COMMAND.watchDirectoryUsers]: (options?: unknown) => this.watchDirectoryUsers(options),
      [CHANNELS_COMMAND.stop]: (node?: unknown) => this.stop(node),
      [CHANNELS_COMMAND.renew]: (node?: unknown) => this.renew(node),
      [CHANNELS_COMMAND.refresh]: () => this.context.tree.refresh(),
      [CHANNELS_COMMAND.startReceiver]: () => this.context.startReceiver(),
      [CHANNELS_COMMAND.stopReceiver]: () => this.context.stopReceiver(),
    });
  }

  async watchDriveChanges(options?: unknown): Promise<ChannelRecord | undefined> {
    return this.watch({ kind: 'driveChanges' }, options);
  }

  /** A file id, a Drive tree row, `{ fileId, address, token }`, or nothing (asked). */
  async watchDriveFile(target?: unknown): Promise<ChannelRecord | undefined> {
    let fileId = typeof target === 'string' ? target : optionString(target, 'fileId');
    let title: string | undefined;
    const item = isObject(target) && target.kind === 'file' && isObject(target.item) ? target.item : undefined;
    if (item && typeof item.id === 'string') {
      fileId = item.id;
      title = typeof item.title === 'string' ? item.title : typeof item.name === 'string' ? item.name : undefined;
    }
    fileId ??= await this.ask(this.t('The id of the Drive file to watch'), '', (value) => (value.trim() === '' ? this.t('Enter a file id.') : undefined));
    if (!fileId) return undefined;
    return this.watch({ kind: 'driveFile', fileId: fileId.trim(), ...(title ? { title } : {}) }, item ? undefined : target);
  }

  /** A Calendar tree row, `{ calendarId, address, token }`, or asked (the primary calendar by default). */
  async watchCalendarEvents(options?: unknown): Promise<ChannelRecord | undefined> {
    const calendarId = calendarIdOf(options)
      ?? await this.ask(this.t('The calendar whose events to watch (its id, or "primary")'), 'primary', (value) => (value.trim() === '' ? this.t('Enter a calendar id.') : undefined));
    if (!calendarId) return undefined;
    return this.watch({ kind: 'calendarEvents', calendarId: calendarId.trim() }, calendarRow(options) ? undefined : options);
  }

  /**
   * Any of Calendar's watches: a calendar's events or its sharing rules (acl), the user's calendar list, or their
   * settings. `{ resource: 'events' | 'acl' | 'calendarList' | 'settings', calendarId?, address, token }`, a Calendar
   * tree row (then its events or sharing are offered), or asked.
   */
  async watchCalendar(options?: unknown): Promise<ChannelRecord | undefined> {
    type Resource = 'events' | 'acl' | 'calendarList' | 'settings';
    const given = optionString(options, 'resource');
    const row = calendarRow(options);
    const resource: Resource | undefined = given === 'events' || given === 'acl' || given === 'calendarList' || given === 'settings' ? given : await this.pick<Resource>([
      { label: this.t('A calendar\'s events'), description: this.t('events added, changed or deleted'), value: 'events' },
      { label: this.t('A calendar\'s sharing'), description: this.t('who the calendar is shared with (its access rules)'), value: 'acl' },
      ...(row ? [] : [
        { label: this.t('Your calendar list'), description: this.t('calendars added, removed or changed in your list'), value: 'calendarList' as const },
        { label: this.t('Your Calendar settings'), description: this.t('time zone, week start, formats…'), value: 'settings' as const },
      ]),
    ], this.t('Watch which Calendar changes?'));
    if (!resource) return undefined;
    const passOn = row ? undefined : options;
    if (resource === 'calendarList') return this.watch({ kind: 'calendarList' }, passOn);
    if (resource === 'settings') return this.watch({ kind: 'calendarSettings' }, passOn);
    const calendarId = calendarIdOf(options)
      ?? await this.ask(resource === 'acl' ? this.t('The calendar whose sharing to watch (its id, or "primary")') : this.t('The calendar whose events to watch (its id, or "primary")'), 'primary', (value) => (value.trim() === '' ? this.t('Enter a calendar id.') : undefined));
    if (!calendarId) return undefined;
    return this.watch(resource === 'acl' ? { kind: 'calendarAcl', calendarId: calendarId.trim() } : { kind: 'calendarEvents', calendarId: calendarId.trim() }, passOn);
  }

  /**
   * `{ domain | customer, events, address, token }`, or asked: the domain or customer form, then the events (none or
   * all chosen: one channel for every event; some: one channel per event, as the API takes one event per watch).
   */
  async watchDirectoryUsers(options?: unknown): Promise<ChannelRecord[] | undefined> {
    let domain = optionString(options, 'domain');
    let customer = optionString(options, 'customer');
    if (domain === undefined && customer === undefined) {
      const form = await this.pick([
        { label: this.t('A domain'), description: this.t('e.g. example.com'), value: 'domain' as const },
        { label: this.t('A customer'), description: this.t('a customer id, or my_customer for your own'), value: 'customer' as const },
      ], this.t('Watch the users of…'));
      if (!form) return undefined;
      const value = await this.ask(form === 'domain' ? this.t('The domain whose users to watch') : this.t('The customer id whose users to watch'), form === 'domain' ? '' : 'my_customer', (text) => (text.trim() === '' ? this.t('Enter a value.') : undefined));
      if (!value) return undefined;
      if (form === 'domain') domain = value.trim();
      else customer = value.trim();
    }
    let events: DirectoryUserEvent[];
    const given = isObject(options) && Array.isArray(options.events) ? options.events : undefined;
    if (given) {
      events = DIRECTORY_USER_EVENTS.filter((event) => given.includes(event));
    } else {
      const picked = await this.vs.window.showQuickPick(DIRECTORY_USER_EVENTS.map((event) => ({ label: event, picked: true })), {
        canPickMany: true,
        ignoreFocusOut: true,
        placeHolder: this.t('Which changes? (all, or one channel per chosen event)'),
      });
      if (!picked) return undefined;
      events = DIRECTORY_USER_EVENTS.filter((event) => picked.some((item) => item.label === event));
    }
    const perEvent: Array<DirectoryUserEvent | undefined> = events.length === 0 || events.length === DIRECTORY_USER_EVENTS.length ? [undefined] : events;
    const request = await this.askRequest(options);
    if (!request) return undefined;
    if (!(await this.context.ensureDirectoryScope())) return undefined;
    const records: ChannelRecord[] = [];
    for (const event of perEvent) {
      const target: WatchTarget = { kind: 'directoryUsers', ...(customer !== undefined ? { customer } : { domain: domain ?? '' }), ...(event ? { event } : {}) };
      records.push(await this.context.operations.watch(target, request));
    }
    return records;
  }

  async stop(node?: unknown): Promise<ChannelRecord | undefined> {
    const record = await this.resolve(node, this.t('Stop which channel?'));
    if (!record) return undefined;
    await this.context.operations.stop(record);
    return record;
  }

  async renew(node?: unknown): Promise<ChannelRecord | undefined> {
    const record = await this.resolve(node, this.t('Renew which channel?'));
    if (!record) return undefined;
    if (record.expiration <= Date.now()) throw new Error(this.t('The channel has expired; watch the resource again instead.'));
    return this.context.operations.renew(record);
  }

  private async watch(target: WatchTarget, options: unknown): Promise<ChannelRecord | undefined> {
    const request = await this.askRequest(options);
    if (!request) return undefined;
    return this.context.operations.watch(target, request);
  }

  /** The address (the receiver's offered when running) and an optional token, from the options or asked. */
  private async askRequest(options: unknown): Promise<WatchRequest | undefined> {
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

  private async ask(prompt: string, value: string, validate: (value: string) => string | undefined, password = false): Promise<string | undefined> {
    return this.vs.window.showInputBox({ prompt, value, ignoreFocusOut: true, password, validateInput: validate });
  }

  private async pick<T>(items: Array<{ label: string; description?: string; value: T }>, placeHolder: string): Promise<T | undefined> {
    return (await this.vs.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.value;
  }

  /** The row's channel, or one picked from the list. */
  private async resolve(node: unknown, placeHolder: string): Promise<ChannelRecord | undefined> {
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
