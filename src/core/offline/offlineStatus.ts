/**
 * What the user sees of being offline: one status bar item ("Offline", "N changes waiting") whose hover says since
 * when and what waits, and the command that lists the waiting changes with Retry now and Discard… (confirmed).
 */
import type * as vscode from 'vscode';
import { DESK_COMMAND } from '../../config/commandIds';
import type { DeskContext } from '../deskContext';
import { Disposable, type DisposableLike } from '../disposable';
import type { Connectivity } from './connectivity';
import type { QueuedChange, WriteQueue } from './writeQueue';

export const SHOW_WAITING_COMMAND = DESK_COMMAND.showWaitingChanges;

export interface OfflineStatusOptions {
  readonly connectivity: Connectivity;
  readonly queue: WriteQueue;
  /** How a moment reads ("Sat 28 Nov, 14:05"): the DeskClock's. */
  readonly dateTime: (ms: number) => string;
}

/** The status bar item; hidden while online with nothing waiting. */
export class OfflineStatusItem extends Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(private readonly vs: typeof vscode, private readonly options: OfflineStatusOptions) {
    super();
    this.item = this._register(vs.window.createStatusBarItem('desk.offline', vs.StatusBarAlignment.Left, 60));
    this.item.name = vs.l10n.t('Desk: Offline');
    this.item.command = SHOW_WAITING_COMMAND;
    this._register(options.connectivity.onDidChange(() => this.update()));
    this._register(options.queue.onDidChange(() => this.update()));
    this.update();
  }

  update(): void {
    const { vs } = this;
    const { connectivity, queue } = this.options;
    const waiting = queue.size;
    const since = connectivity.offlineSince;
    if (since === undefined && waiting === 0) {
      this.item.hide();
      return;
    }
    const count = waiting === 1 ? vs.l10n.t('1 change waiting') : vs.l10n.t('{0} changes waiting', waiting);
    if (since !== undefined) this.item.text = waiting > 0 ? `$(cloud-offline) ${vs.l10n.t('Offline')} · ${count}` : `$(cloud-offline) ${vs.l10n.t('Offline')}`;
    else this.item.text = `$(sync) ${count}`;
    const tooltip = new vs.MarkdownString();
    tooltip.appendMarkdown(since !== undefined
      ? vs.l10n.t('Desk cannot reach the service since {0}. What you see is what was loaded; changes are kept and sent when the connection is back.', this.options.dateTime(since))
      : vs.l10n.t('Back online: sending the changes made offline.'));
    const changes = queue.list();
    if (changes.length > 0) {
      tooltip.appendMarkdown(`\n\n${vs.l10n.t('Waiting:')}\n`);
      for (const change of changes.slice(0, 10)) tooltip.appendText(`\n- ${change.summary}`);
      if (changes.length > 10) tooltip.appendText(`\n- ${vs.l10n.t('and {0} more', changes.length - 10)}`);
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }
}

interface ChangePick extends vscode.QuickPickItem {
  readonly change?: QueuedChange;
  readonly action?: 'retry' | 'discard';
}

/** "Desk: Show Changes Waiting to Be Sent": each with what, where, since when; Retry now, or Discard… (confirmed). */
export async function showWaitingChanges(vs: typeof vscode, options: OfflineStatusOptions): Promise<void> {
  const { queue, connectivity } = options;
  const changes = queue.list();
  if (changes.length === 0) {
    void vs.window.showInformationMessage(connectivity.online ? vs.l10n.t('Desk: no changes are waiting.') : vs.l10n.t('Desk is offline; no changes are waiting.'));
    return;
  }
  const items: ChangePick[] = [
    { label: `$(sync) ${vs.l10n.t('Retry Now')}`, description: vs.l10n.t('send every waiting change'), action: 'retry' },
    { label: '', kind: vs.QuickPickItemKind.Separator },
    ...changes.map((change): ChangePick => ({ label: change.summary, description: vs.l10n.t('since {0}', options.dateTime(change.queuedAt)), detail: vs.l10n.t('Select to discard it…'), change })),
  ];
  const picked = await vs.window.showQuickPick(items, { title: vs.l10n.t('Changes waiting to be sent ({0})', changes.length), placeHolder: vs.l10n.t('Retry now, or pick a change to discard it') });
  if (!picked) return;
  if (picked.action === 'retry') {
    await connectivity.probeNow();
    await queue.replay();
    return;
  }
  if (!picked.change) return;
  const discard = vs.l10n.t('Discard Change');
  const answer = await vs.window.showWarningMessage(vs.l10n.t('Discard “{0}”?', picked.change.summary), { modal: true, detail: vs.l10n.t('It was never sent and will be lost. The view shows the service\'s version after its next refresh.') }, discard);
  if (answer === discard) await queue.remove(picked.change.id);
}

/** "Desk: Show Changes Waiting to Be Sent" for this window's queue. */
export function showWaitingChangesOf(desk: DeskContext): Promise<void> {
  return showWaitingChanges(desk.vs, waitingOptions(desk));
}

/** The offline status item and a probe whenever the window gets focus (the command is registered at activation). */
export function registerOfflineStatus(desk: DeskContext): void {
  const { vs } = desk;
  desk.register(new OfflineStatusItem(vs, waitingOptions(desk)));
  desk.register(vs.window.onDidChangeWindowState((state) => {
    if (state.focused) void desk.connectivity.probeNow();
  }));
  // The account's waiting changes show at once, and replay as soon as their features load (if the service answers).
  void Promise.resolve().then(() => desk.offlineQueue.replay());
}

function waitingOptions(desk: DeskContext): OfflineStatusOptions {
  return { connectivity: desk.connectivity, queue: desk.offlineQueue, dateTime: (ms) => desk.clock.dateTime(ms) };
}

/**
 * Marks a tree view offline in one header line while the service cannot be reached: its rows are what was loaded
 * (this session, or cached at the last one), not fresh. Cleared when the service is back.
 */
export function markViewOffline(desk: Pick<DeskContext, 'vs' | 'connectivity' | 'clock'>, view: Pick<vscode.TreeView<unknown>, 'message'>): DisposableLike {
  const { vs, connectivity } = desk;
  const update = (): void => {
    const since = connectivity.offlineSince;
    view.message = since === undefined ? undefined : vs.l10n.t('Offline since {0}: showing what was last loaded. Changes are kept and sent when the connection is back.', desk.clock.time(since));
  };
  update();
  return connectivity.onDidChange(update);
}
