/** The status-bar item that counts unseen Drive changes and lists them in a quick pick. */
import type * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import { english, Translate } from '../../../shared/l10n';
import { ChangeEntry, ChangeLog, describeKind } from './changeLog';
import { DRIVE_COMMAND } from '../../../config/commandIds';


function iconFor(entry: ChangeEntry): string {
  switch (entry.kind) {
    case 'created': return '$(add)';
    case 'modified': return '$(edit)';
    case 'trashed': return '$(trash)';
    case 'removed': return '$(close)';
  }
}

/** "5 min ago" style, with the exact time in the quick pick's detail; older than a day, the moment itself. */
export function relativeTime(time: number, now: number, when: (ms: number) => string, t: Translate = english): string {
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 60) return t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t('{0} h ago', hours);
  return when(time);
}

interface ChangePickItem extends vscode.QuickPickItem {
  readonly entry: ChangeEntry;
}

/**
 * The status-bar item for Drive changes made elsewhere: hidden while there is nothing new, "$(cloud) 3 Drive
 * changes" otherwise. Clicking lists them; looking at the list marks them seen; choosing one reveals it.
 */
export class ChangesStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly vs: typeof vscode,
    private readonly log: ChangeLog,
    private readonly onPick: (entry: ChangeEntry) => Promise<void>,
    /** How moments read (core/text/clock.ts: the Calendar zone, 24-hour). */
    private readonly clock: { dateTime(ms: number): string },
    /** Whose Drive changed, when several accounts are signed in (undefined with one: the item reads as today). */
    private readonly whose: () => string | undefined = () => undefined,
  ) {
    super();
    this.item = this._register(vs.window.createStatusBarItem('desk.drive.changes', vs.StatusBarAlignment.Left, 50));
    this.item.name = vs.l10n.t('Desk: Drive changes');
    this.item.command = DRIVE_COMMAND.showChanges;
    this.update();
  }

  /** Re-renders after the log changed. */
  update(): void {
    if (this.log.count === 0) {
      this.item.hide();
      return;
    }
    const t = this.vs.l10n.t;
    const whose = this.whose();
    this.item.text = whose ? t('{0} · {1}', this.log.statusText(t), whose) : this.log.statusText(t);
    const heading = whose ? t('Changed on the Drive of {0} by another app or person', whose) : t('Changed on Drive by another app or person');
    this.item.tooltip = `${heading}\n\n${this.log.summary(undefined, t)}`;
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  async showQuickPick(): Promise<void> {
    const vs = this.vs;
    const entries = this.log.entries();
    if (entries.length === 0) {
      void vs.window.showInformationMessage(vs.l10n.t('No new Drive changes.'));
      return;
    }
    const now = Date.now();
    const items: ChangePickItem[] = entries.map((entry) => ({
      entry,
      label: `${iconFor(entry)} ${entry.title}`,
      description: `${describeKind(entry.kind, vs.l10n.t)} · ${relativeTime(entry.time, now, (ms) => this.clock.dateTime(ms), vs.l10n.t)}`,
      detail: `${this.clock.dateTime(entry.time)}${entry.by ? ` · ${entry.by}` : ''}`,
    }));
    // Seen once listed: the count resets even if the user picks nothing.
    this.log.markSeen();
    this.update();
    const picked = await vs.window.showQuickPick(items, { placeHolder: vs.l10n.t('Drive changes: choose one to show it'), matchOnDescription: true });
    if (picked) await this.onPick(picked.entry);
  }
}
