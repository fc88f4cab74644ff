/**
 * When the Explorer's Drive folders cannot be listed (a workspace reopened signed out, Drive or the emulator not
 * reachable): one notice saying why with the way out (Sign In, or Retry), however many requests VS Code makes
 * meanwhile, and a refresh of the Explorer once Drive is back, since VS Code does not ask a failed folder again.
 */
import type * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import { DESK_COMMAND } from '../../../config/commandIds';
import { DRIVE_SCHEME } from '../fs/drivePath';

/** `account`: the folder's account is not the one signed in (its message names it). */
export type UnavailableReason = 'signedOut' | 'account' | 'unreachable';

/**
 * VS Code's own "Refresh Explorer" command: it resolves the workspace folders again, failed ones included. It also
 * opens the Explorer in the side bar (VS Code has no refresh that leaves the side bar as it is).
 */
const REFRESH_EXPLORER_COMMAND = 'workbench.files.action.refreshFilesExplorer';

export interface DriveFolderAvailabilityOptions {
  /** Fires true when the user signs in (and false when they sign out). */
  readonly onDidChangeSignedIn: vscode.Event<boolean>;
  /** Fires when the backend (Google, an emulator) changes or comes back. */
  readonly onDidChangeBackend: vscode.Event<unknown>;
  /** Whether a Desk view is on screen (the side bar shows Desk's container). */
  readonly deskShown?: () => boolean;
}

/** Shows Desk's container in the side bar (VS Code's command for the activity bar entry `desk`). */
const SHOW_DESK_COMMAND = 'workbench.view.extension.desk';

export class DriveFolderAvailability extends Disposable {
  /** The notice on screen (or answered) for the current outage; cleared when Drive is back. */
  private noticed: UnavailableReason | undefined;
  /** A request failed since Drive was last back: the Explorer holds a failed folder to ask again. */
  private failedSinceBack = false;

  constructor(private readonly vs: typeof vscode, private readonly options: DriveFolderAvailabilityOptions) {
    super();
    this._register(options.onDidChangeSignedIn((signedIn) => {
      if (signedIn) void this.back();
    }));
    this._register(options.onDidChangeBackend(() => void this.back()));
  }

  /** Whether the workspace holds a Drive folder (the Explorer lists it). */
  private hasDriveFolders(): boolean {
    return (this.vs.workspace.workspaceFolders ?? []).some((folder) => folder.uri.scheme === DRIVE_SCHEME);
  }

  /** A desk-drive: request failed for this reason: say so once, with the way out. */
  report(reason: UnavailableReason, message: string): void {
    this.failedSinceBack = true;
    if (this.noticed === reason) return;
    this.noticed = reason;
    void this.notify(reason, message);
  }

  /** Signed in again or another backend: the Explorer asks again for what failed. */
  private async back(): Promise<void> {
    const failed = this.failedSinceBack;
    this.noticed = undefined;
    this.failedSinceBack = false;
    if (!failed || !this.hasDriveFolders()) return;
    // Signing in or switching backend from Desk's side bar must not leave the user in the Explorer.
    const deskShown = this.options.deskShown?.() ?? false;
    await this.refreshExplorer();
    if (deskShown) await this.showDesk();
  }

  private async showDesk(): Promise<void> {
    try {
      await this.vs.commands.executeCommand(SHOW_DESK_COMMAND);
    } catch {
      // Nothing to go back to.
    }
  }

  private async refreshExplorer(): Promise<void> {
    try {
      await this.vs.commands.executeCommand(REFRESH_EXPLORER_COMMAND);
    } catch {
      // A VS Code without the Explorer (the command missing): nothing to refresh.
    }
  }

  private async notify(reason: UnavailableReason, message: string): Promise<void> {
    const { l10n, window, commands } = this.vs;
    if (reason === 'signedOut' || reason === 'account') {
      const signIn = l10n.t('Sign In');
      const text = reason === 'account' ? l10n.t('Desk: {0}', message) : this.hasDriveFolders() ? l10n.t('Desk: sign in to list the Drive folders of this workspace and open their files.') : l10n.t('Desk: sign in to open Drive files.');
      const choice = await window.showWarningMessage(text, signIn);
      if (choice === signIn) await commands.executeCommand(DESK_COMMAND.signIn);
      return;
    }
    const retry = l10n.t('Retry');
    const choice = await window.showWarningMessage(l10n.t('Desk: Drive is not reachable, so the Explorer cannot list its Drive folders. {0}', message), retry);
    if (choice !== retry) return;
    // Asked again: a new failure gets a new notice.
    this.noticed = undefined;
    this.failedSinceBack = false;
    await this.refreshExplorer();
  }
}
