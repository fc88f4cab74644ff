/** The watch commands: all Drive changes, a Drive file, a calendar's events or sharing, the calendar list, Calendar settings, the directory's users. */
import { DIRECTORY_USER_EVENTS, DirectoryUserEvent } from '../../../shared/schemas/channels';
import type { ChannelRecord, WatchTarget } from '../model';
import { calendarIdOf, calendarRow, ChannelPrompts, ChannelsCommandContext, isObject, optionString } from './context';
import { directoryDomainProblem, directoryEventWords, driveFileIdOf, driveFileIdProblem } from '../validation';

export class ChannelWatchCommands {
  constructor(private readonly context: ChannelsCommandContext, private readonly prompts: ChannelPrompts) {}

  private get vs() {
    return this.context.desk.vs;
  }

  private get t() {
    return this.prompts.t;
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
    fileId ??= await this.prompts.ask(this.t('The id of the Drive file to watch, or its link'), '', (value) => driveFileIdProblem(value, this.t));
    if (!fileId) return undefined;
    return this.watch({ kind: 'driveFile', fileId: driveFileIdOf(fileId) ?? fileId.trim(), ...(title ? { title } : {}) }, item ? undefined : target);
  }

  /** A Calendar tree row, `{ calendarId, address, token }`, or asked (the primary calendar by default). */
  async watchCalendarEvents(options?: unknown): Promise<ChannelRecord | undefined> {
    const calendarId = calendarIdOf(options)
      ?? await this.prompts.ask(this.t('The calendar whose events to watch (its id, or "primary")'), 'primary', (value) => (value.trim() === '' ? this.t('Enter a calendar id.') : undefined));
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
    const resource: Resource | undefined = given === 'events' || given === 'acl' || given === 'calendarList' || given === 'settings' ? given : await this.prompts.pick<Resource>([
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
      ?? await this.prompts.ask(resource === 'acl' ? this.t('The calendar whose sharing to watch (its id, or "primary")') : this.t('The calendar whose events to watch (its id, or "primary")'), 'primary', (value) => (value.trim() === '' ? this.t('Enter a calendar id.') : undefined));
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
      const form = await this.prompts.pick([
        { label: this.t('A domain'), description: this.t('e.g. example.com'), value: 'domain' as const },
        { label: this.t('A customer'), description: this.t('a customer id, or my_customer for your own'), value: 'customer' as const },
      ], this.t('Watch the users of…'));
      if (!form) return undefined;
      const value = await this.prompts.ask(form === 'domain' ? this.t('The domain whose users to watch') : this.t('The customer id whose users to watch'), form === 'domain' ? '' : 'my_customer', (text) => (form === 'domain' ? directoryDomainProblem(text, this.t) : text.trim() === '' ? this.t('Enter a value.') : undefined));
      if (!value) return undefined;
      if (form === 'domain') domain = value.trim();
      else customer = value.trim();
    }
    let events: DirectoryUserEvent[];
    const given = isObject(options) && Array.isArray(options.events) ? options.events : undefined;
    if (given) {
      events = DIRECTORY_USER_EVENTS.filter((event) => given.includes(event));
    } else {
      const picked = await this.vs.window.showQuickPick(DIRECTORY_USER_EVENTS.map((event) => ({ label: directoryEventWords(event, this.t), description: event, picked: true, event })), {
        canPickMany: true,
        ignoreFocusOut: true,
        placeHolder: this.t('Which changes? (all, or one channel per chosen event)'),
      });
      if (!picked) return undefined;
      events = DIRECTORY_USER_EVENTS.filter((event) => picked.some((item) => item.event === event));
    }
    const perEvent: Array<DirectoryUserEvent | undefined> = events.length === 0 || events.length === DIRECTORY_USER_EVENTS.length ? [undefined] : events;
    const request = await this.prompts.askRequest(options);
    if (!request) return undefined;
    if (!(await this.context.ensureDirectoryScope())) return undefined;
    const records: ChannelRecord[] = [];
    for (const event of perEvent) {
      const target: WatchTarget = { kind: 'directoryUsers', ...(customer !== undefined ? { customer } : { domain: domain ?? '' }), ...(event ? { event } : {}) };
      records.push(await this.context.operations.watch(target, request));
    }
    return records;
  }

  private async watch(target: WatchTarget, options: unknown): Promise<ChannelRecord | undefined> {
    const request = await this.prompts.askRequest(options);
    if (!request) return undefined;
    return this.context.operations.watch(target, request);
  }
}
