/**
 * The Channels commands as one id → handler table behind the one wrapper: watch all Drive changes, a Drive file, a
 * calendar's events or sharing, the calendar list, Calendar settings or the directory's users (watch.ts, asking for
 * the HTTPS address and an optional token, checked before sending), stop and renew a channel, and start or stop the
 * built-in receiver. Each resolves to what it made or changed.
 */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import { refuseOffline } from '../../../core/offline/offlineRefusal';
import { CHANNELS_COMMAND } from '../../../config/commandIds';
import type { ChannelRecord } from '../model';
import { ChannelPrompts, ChannelsCommandContext } from './context';
import { ChannelWatchCommands } from './watch';

export type { ChannelsCommandContext, WatchOptions } from './context';

export class ChannelsCommands {
  readonly prompts: ChannelPrompts;
  readonly watch: ChannelWatchCommands;

  constructor(private readonly context: ChannelsCommandContext) {
    this.prompts = new ChannelPrompts(context);
    this.watch = new ChannelWatchCommands(context, this.prompts);
  }

  private get t() {
    return this.prompts.t;
  }

  register(): vscode.Disposable[] {
    const { watch } = this;
    return registerCommands(this.context.desk, refuseOffline(this.context.desk, {
      [CHANNELS_COMMAND.watchDriveChanges]: (options?: unknown) => watch.watchDriveChanges(options),
      [CHANNELS_COMMAND.watchDriveFile]: (target?: unknown) => watch.watchDriveFile(target),
      [CHANNELS_COMMAND.watchCalendarEvents]: (options?: unknown) => watch.watchCalendarEvents(options),
      [CHANNELS_COMMAND.watchCalendar]: (options?: unknown) => watch.watchCalendar(options),
      [CHANNELS_COMMAND.watchDirectoryUsers]: (options?: unknown) => watch.watchDirectoryUsers(options),
      [CHANNELS_COMMAND.stop]: (node?: unknown) => this.stop(node),
      [CHANNELS_COMMAND.renew]: (node?: unknown) => this.renew(node),
      [CHANNELS_COMMAND.refresh]: () => { this.context.tree.refresh(); },
      [CHANNELS_COMMAND.startReceiver]: () => this.context.startReceiver(),
      [CHANNELS_COMMAND.stopReceiver]: () => this.context.stopReceiver(),
    // A watch channel makes the service call an address: started, stopped or renewed online only, never kept for later.
    }, [CHANNELS_COMMAND.watchDriveChanges, CHANNELS_COMMAND.watchDriveFile, CHANNELS_COMMAND.watchCalendarEvents, CHANNELS_COMMAND.watchCalendar, CHANNELS_COMMAND.watchDirectoryUsers, CHANNELS_COMMAND.stop, CHANNELS_COMMAND.renew]));
  }

  async stop(node?: unknown): Promise<ChannelRecord | undefined> {
    const record = await this.prompts.resolve(node, this.t('Stop which channel?'));
    if (!record) return undefined;
    await this.context.operations.stop(record);
    return record;
  }

  async renew(node?: unknown): Promise<ChannelRecord | undefined> {
    const record = await this.prompts.resolve(node, this.t('Renew which channel?'));
    if (!record) return undefined;
    if (record.expiration <= Date.now()) throw new Error(this.t('The channel has expired; watch the resource again instead.'));
    return this.context.operations.renew(record);
  }
}
