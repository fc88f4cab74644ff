/**
 * The Channels feature's clocks: the expiry countdown redrawn while the view is visible, and automatic renewal a
 * little before each channel expires (renewal.ts plans it) — Desk's own channels always, the user's with
 * `desk.channels.autoRenew`. A failed renewal is reported once and not retried.
 */
import type * as vscode from 'vscode';
import type { DeskContext } from '../../core/deskContext';
import { Disposable, toDisposable } from '../../core/disposable';
import type { ChannelBook, ChannelRecord } from './model';
import type { ChannelOperations } from './operations';
import { countdownIntervalMs, planRenewals } from './renewal';
import type { ChannelsNode, ChannelsTreeProvider } from './tree/treeProvider';
import { CHANNELS_SETTING } from '../../config/settingKeys';

export interface ChannelTimersOptions {
  readonly desk: DeskContext;
  readonly book: ChannelBook;
  readonly operations: ChannelOperations;
  readonly tree: ChannelsTreeProvider;
  readonly view: vscode.TreeView<ChannelsNode>;
}

export class ChannelTimers extends Disposable {
  private countdownTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing = false;
  /** Channels whose automatic renewal failed: not tried again (they expire as they would have). */
  private readonly renewFailed = new Set<string>();

  constructor(private readonly options: ChannelTimersOptions) {
    super();
    const { desk, book, view } = options;
    this._register(book.onDidChange(() => { this.reschedule(); }));
    this._register(view.onDidChangeVisibility(() => { this.scheduleCountdown(); }));
    this._register(desk.vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CHANNELS_SETTING.autoRenew)) this.scheduleRenewals();
    }));
    this._register(toDisposable(() => {
      clearTimeout(this.countdownTimer);
      clearTimeout(this.renewTimer);
    }));
  }

  /** The channels shown changed (another account or backend, or a channel made, renewed, stopped). */
  reschedule(): void {
    this.scheduleCountdown();
    this.scheduleRenewals();
  }

  /** Redraws the countdowns while the view is visible: each second near an expiry, else every 30 seconds. */
  private scheduleCountdown(): void {
    clearTimeout(this.countdownTimer);
    this.countdownTimer = undefined;
    const records = this.options.book.list();
    if (!this.options.view.visible || records.length === 0 || this.isDisposed) return;
    this.countdownTimer = setTimeout(() => {
      this.options.tree.refresh();
      this.scheduleCountdown();
    }, countdownIntervalMs(records, Date.now()));
  }

  /** Renews each channel a little before it expires (see renewal.ts). */
  private scheduleRenewals(): void {
    clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
    if (this.isDisposed) return;
    const plan = planRenewals(this.renewable(), Date.now());
    if (plan.due.length > 0) {
      void this.renewDue();
      return;
    }
    if (plan.nextAt === undefined) return;
    // setTimeout's limit is about 24.8 days; a later renewal is looked at again then.
    const delay = Math.min(Math.max(1000, plan.nextAt - Date.now()), 2 ** 31 - 1);
    this.renewTimer = setTimeout(() => { this.scheduleRenewals(); }, delay);
  }

  /** Desk's own channels (Drive's live changes) always; the user's only with the setting on. */
  private renewable(): ChannelRecord[] {
    const all = this.options.desk.vs.workspace.getConfiguration().get<boolean>(CHANNELS_SETTING.autoRenew) === true;
    return this.options.book.list().filter((record) => !this.renewFailed.has(record.id) && (all || record.feed !== undefined));
  }

  private async renewDue(): Promise<void> {
    const { desk, operations } = this.options;
    if (this.renewing) return;
    this.renewing = true;
    try {
      for (const record of planRenewals(this.renewable(), Date.now()).due) {
        try {
          const renewed = await operations.renew(record);
          desk.log.info(`Channels: renewed ${record.id} as ${renewed.id}`);
        } catch (error) {
          // Not retried in a loop: the user is told once, and the channel expires as it would have.
          this.renewFailed.add(record.id);
          void desk.showError(error, { action: desk.vs.l10n.t('Could not renew the channel on {0}', record.id) });
        }
      }
    } finally {
      this.renewing = false;
    }
    this.scheduleRenewals();
  }
}
