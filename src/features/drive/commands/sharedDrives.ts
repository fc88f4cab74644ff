/**
 * Shared drives from the tree and the palette: create, rename, hide and unhide (and show the hidden ones), delete
 * (only an empty drive, confirmed), and members (list, add with a role, change a role, remove). A command on a row
 * inside a drive acts on that drive; from the palette the drive is picked. The section reloads after each change.
 */
import type * as vscode from 'vscode';
import { GoogleApiError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { DriveMemberRole } from '../../../shared/schemas/drive/drives';
import type { DriveItem } from '../port';
import { driveAsItem, SharedDrivesApi } from '../sharedDrives/port';
import { memberRoleDetail, memberRoleInput, memberRoleLabel, memberRoleOf, MEMBER_ROLES, sharedDriveNameProblem, sharedDriveRow, sortMembers } from '../sharedDrives/nodes';
import type { DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';
import { appendAll } from '../../../shared/arrays';

/** The context key behind the "show hidden shared drives" toggle. */
export const HIDDEN_DRIVES_SHOWN_CONTEXT_KEY = 'desk:hiddenSharedDrivesShown';

type MemberItem = vscode.QuickPickItem & { member?: DrivePermission; add?: true };

export class SharedDriveCommands extends DriveCommandPart {
  private api(): SharedDrivesApi {
    return this.host.resources();
  }

  private nameOf(drive: DriveItem): string {
    return drive.title ?? drive.id;
  }

  private refreshDrives(): void {
    this.host.provider.refresh(this.host.model().section('sharedDrives'));
  }

  /** The drive of a row (the drive row itself, or any row inside it), else one picked from the user's drives. */
  private async targetDrive(node: DriveNode | undefined, which: 'any' | 'shown' | 'hidden', placeHolder: string): Promise<DriveItem | undefined> {
    let current: DriveNode | undefined = node ?? this.host.treeView.selection.at(0);
    while (current && current.kind !== 'section') {
      const row = sharedDriveRow(current);
      if (row) return row.item;
      current = current.parent;
    }
    const drives: DriveItem[] = [];
    for await (const drive of this.api().allDrives(which === 'any' ? {} : { q: `hidden = ${String(which === 'hidden')}` })) drives.push(driveAsItem(drive));
    if (drives.length === 0) {
      void this.vs.window.showInformationMessage(which === 'hidden' ? this.t('None of your shared drives is hidden.') : this.t('You are not a member of any shared drive.'));
      return undefined;
    }
    const picked = await this.vs.window.showQuickPick(drives.map((drive) => ({ label: `$(library) ${this.nameOf(drive)}`, description: drive.labels?.hidden ? this.t('hidden') : undefined, drive })), { placeHolder });
    return picked?.drive;
  }

  private async membersOf(drive: DriveItem): Promise<DrivePermission[]> {
    const all: DrivePermission[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.api().listPermissions(drive.id, { maxResults: 100, pageToken });
      appendAll(all, page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return sortMembers(all);
  }

  private memberName(member: DrivePermission): string {
    return member.name ?? member.emailAddress ?? member.id ?? '';
  }

  private async pickRole(title: string, placeHolder: string, current?: DriveMemberRole): Promise<DriveMemberRole | undefined> {
    const picked = await this.vs.window.showQuickPick(MEMBER_ROLES.map((role) => ({ label: memberRoleLabel(role, this.t), description: role === current ? this.t('current') : memberRoleDetail(role, this.t), role })), { title, placeHolder });
    return picked?.role;
  }

  private async pickMember(drive: DriveItem, placeHolder: string): Promise<DrivePermission | undefined> {
    const list = await this.membersOf(drive);
    const picked = await this.vs.window.showQuickPick(list.map((member) => this.memberRow(member)), { title: this.t('Members of “{0}”', this.nameOf(drive)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.member;
  }

  private memberRow(member: DrivePermission): MemberItem {
    const role = memberRoleOf(member);
    return { label: `$(person) ${this.memberName(member)}`, description: role ? memberRoleLabel(role, this.t) : member.role, detail: member.emailAddress, member };
  }

  /** Drive's refusals about members, in words. */
  private explained(error: unknown, drive: DriveItem): unknown {
    if (!(error instanceof GoogleApiError)) return error;
    if (error.reason === 'insufficientFilePermissions') return new Error(this.t('Only managers of “{0}” can change its members or settings.', this.nameOf(drive)));
    if (error.reason === 'cannotUpdatePermission' || error.reason === 'cannotDeletePermission') return new Error(this.t('“{0}” must keep at least one manager.', this.nameOf(drive)));
    return error;
  }

  private async addMemberTo(drive: DriveItem): Promise<boolean> {
    const title = this.t('Add members to “{0}”', this.nameOf(drive));
    // The addresses typed last time and not added (Escape on the role step, a refusal) come back.
    const draft = this.context.drafts.open(`add-members/${drive.id}`, { emails: '' });
    const emails = await this.context.askEmails(title, draft);
    if (!emails) return false;
    const role = await this.pickRole(title, this.t('What may {0} do in the shared drive?', emails.join(', ')));
    if (!role) return false;
    let added = 0;
    try {
      for (const email of emails) {
        await this.api().insertPermission(drive.id, { type: 'user', emailAddress: email, ...memberRoleInput(role) });
        added++;
      }
    } catch (error) {
      // Next time the dialog offers the people not added yet.
      draft.keep('emails', emails.slice(added).join(', '));
      throw this.explained(error, drive);
    }
    draft.drop();
    void this.vs.window.showInformationMessage(this.t('Added {0} to “{1}” as {2}.', emails.join(', '), this.nameOf(drive), memberRoleLabel(role, this.t)));
    return true;
  }

  private async changeRole(drive: DriveItem, chosen?: DrivePermission): Promise<boolean> {
    const member = chosen ?? await this.pickMember(drive, this.t('Whose role should change?'));
    if (!member?.id) return false;
    const current = memberRoleOf(member);
    const role = await this.pickRole(this.t('Members of “{0}”', this.nameOf(drive)), this.t('New role for {0}', this.memberName(member)), current);
    if (!role || role === current) return false;
    try {
      await this.api().updatePermission(drive.id, member.id, memberRoleInput(role));
    } catch (error) {
      throw this.explained(error, drive);
    }
    void this.vs.window.showInformationMessage(this.t('{0} is now {1} of “{2}”.', this.memberName(member), memberRoleLabel(role, this.t), this.nameOf(drive)));
    return true;
  }

  private async removeMemberFrom(drive: DriveItem, chosen?: DrivePermission): Promise<boolean> {
    const member = chosen ?? await this.pickMember(drive, this.t('Who should leave the shared drive?'));
    if (!member?.id) return false;
    const confirmed = await confirmModal(this.vs, this.t('Remove {0} from “{1}”?', this.memberName(member), this.nameOf(drive)), this.t('They lose access to every file in the shared drive, unless a file is shared with them on its own.'), this.t('Remove'));
    if (!confirmed) return false;
    try {
      await this.api().deletePermission(drive.id, member.id);
    } catch (error) {
      throw this.explained(error, drive);
    }
    void this.vs.window.showInformationMessage(this.t('Removed {0} from “{1}”.', this.memberName(member), this.nameOf(drive)));
    return true;
  }

  /** The Members… flow: everyone with their role; add, or pick someone to change or remove. */
  private async manageMembers(drive: DriveItem): Promise<void> {
    if (drive.capabilities?.canManageMembers === false) {
      await this.vs.window.showQuickPick((await this.membersOf(drive)).map((member) => this.memberRow(member)), { title: this.t('Members of “{0}”', this.nameOf(drive)), placeHolder: this.t('Only managers can change who is a member') });
      return;
    }
    for (;;) {
      const list = await this.membersOf(drive);
      const items: MemberItem[] = [{ label: this.t('$(add) Add members…'), add: true }, ...list.map((member) => this.memberRow(member))];
      const picked = await this.vs.window.showQuickPick(items, { title: this.t('Members of “{0}”', this.nameOf(drive)), placeHolder: this.t('Pick a member to change their role or remove them'), matchOnDescription: true, matchOnDetail: true });
      if (!picked) return;
      if (picked.add) {
        await this.addMemberTo(drive);
        continue;
      }
      const member = picked.member;
      if (!member) return;
      const action = await this.vs.window.showQuickPick([
        { label: this.t('$(edit) Change role…'), action: 'change' as const },
        { label: this.t('$(person-remove) Remove from the shared drive'), action: 'remove' as const },
      ], { title: this.memberName(member), placeHolder: this.t('What should change for {0}?', this.memberName(member)) });
      if (!action) continue;
      if (action.action === 'change') await this.changeRole(drive, member);
      else await this.removeMemberFrom(drive, member);
    }
  }

  private onDrive(which: 'any' | 'shown' | 'hidden', placeHolder: () => string, action: () => string, work: (drive: DriveItem) => Promise<unknown>) {
    return (node?: DriveNode) => attempt(this.desk, async () => {
      const drive = await this.targetDrive(node, which, placeHolder());
      if (drive) await work(drive);
    }, { action: action(), retry: true });
  }

  private async setShowHidden(shown: boolean): Promise<void> {
    this.host.model().showHiddenDrives = shown;
    await this.vs.commands.executeCommand('setContext', HIDDEN_DRIVES_SHOWN_CONTEXT_KEY, shown);
    this.refreshDrives();
  }

  create() {
    return attempt(this.desk, async () => {
      const name = await this.vs.window.showInputBox({ prompt: this.t('Name of the new shared drive'), placeHolder: this.t('Team files'), validateInput: (value) => sharedDriveNameProblem(value, this.t) });
      if (name === undefined) return;
      const drive = await this.api().insertDrive({ name: name.trim() });
      this.refreshDrives();
      void this.vs.window.showInformationMessage(this.t('Created the shared drive “{0}”; you manage it.', drive.name ?? name.trim()));
    }, { action: this.t('Could not create the shared drive'), retry: true });
  }

  readonly rename = this.onDrive('any', () => this.t('Which shared drive should be renamed?'), () => this.t('Could not rename the shared drive'), async (drive) => {
    const name = await this.vs.window.showInputBox({ prompt: this.t('New name of the shared drive'), value: this.nameOf(drive), validateInput: (value) => sharedDriveNameProblem(value, this.t) });
    if (name === undefined || name.trim() === this.nameOf(drive)) return;
    try {
      await this.api().updateDrive(drive.id, { name: name.trim() });
    } catch (error) {
      throw this.explained(error, drive);
    }
    this.refreshDrives();
  });

  readonly hide = this.onDrive('shown', () => this.t('Which shared drive should be hidden?'), () => this.t('Could not hide the shared drive'), async (drive) => {
    await this.api().hideDrive(drive.id);
    this.refreshDrives();
    if (!this.host.model().showHiddenDrives) void this.vs.window.showInformationMessage(this.t('“{0}” is hidden. Show Hidden Shared Drives lists it again.', this.nameOf(drive)));
  });

  readonly unhide = this.onDrive('hidden', () => this.t('Which hidden shared drive should be shown again?'), () => this.t('Could not unhide the shared drive'), async (drive) => {
    await this.api().unhideDrive(drive.id);
    this.refreshDrives();
  });

  readonly delete = this.onDrive('any', () => this.t('Which shared drive should be deleted?'), () => this.t('Could not delete the shared drive'), async (drive) => {
    const notEmpty = (): Error => new Error(this.t('“{0}” still holds files or folders. Move them out or move them to the trash first; only an empty shared drive can be deleted.', this.nameOf(drive)));
    const live = await this.api().listFiles({ corpora: 'drive', driveId: drive.id, includeItemsFromAllDrives: true, q: 'trashed = false', maxResults: 1 });
    if (live.items.length > 0) throw notEmpty();
    const confirmed = await confirmModal(this.vs, this.t('Delete the shared drive “{0}”?', this.nameOf(drive)), this.t('It is deleted for good with what is in its trash, for every member. This cannot be undone.'), this.t('Delete'));
    if (!confirmed) return;
    try {
      await this.api().deleteDrive(drive.id);
    } catch (error) {
      if (error instanceof GoogleApiError && error.reason === 'cannotDeleteResourceWithChildren') throw notEmpty();
      throw this.explained(error, drive);
    }
    this.refreshDrives();
    void this.vs.window.showInformationMessage(this.t('Deleted the shared drive “{0}”.', this.nameOf(drive)));
  });

  readonly members = this.onDrive('any', () => this.t('Whose members should be shown?'), () => this.t('Could not change the members'), (drive: DriveItem) => this.manageMembers(drive));

  readonly addMember = this.onDrive('any', () => this.t('Add members to which shared drive?'), () => this.t('Could not add members'), (drive: DriveItem) => this.addMemberTo(drive));

  readonly changeMemberRole = this.onDrive('any', () => this.t('In which shared drive?'), () => this.t('Could not change the role'), (drive) => this.changeRole(drive));

  readonly removeMember = this.onDrive('any', () => this.t('From which shared drive?'), () => this.t('Could not remove the member'), (drive) => this.removeMemberFrom(drive));

  showHidden() {
    return attempt(this.desk, () => this.setShowHidden(true));
  }

  hideHidden() {
    return attempt(this.desk, () => this.setShowHidden(false));
  }
}
