/**
 * Shared drives from the tree and the palette: create, rename, hide and unhide (and show the hidden ones), delete
 * (only an empty drive, confirmed), and members (list, add with a role, change a role, remove). A command on a row
 * inside a drive acts on that drive; from the palette the drive is picked. The section reloads after each change.
 */
import type * as vscode from 'vscode';
import { GoogleApiError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/confirm';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { DriveMemberRole } from '../../../shared/schemas/drive/drives';
import type { DriveItem } from '../port';
import { driveAsItem, SharedDrivesApi } from '../sharedDrives/port';
import { memberRoleDetail, memberRoleInput, memberRoleLabel, memberRoleOf, MEMBER_ROLES, sharedDriveRow, sortMembers } from '../sharedDrives/nodes';
import { emailsProblem, parseEmails } from '../sharing/emails';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';

/** The context key behind the "show hidden shared drives" toggle. */
export const HIDDEN_DRIVES_SHOWN_CONTEXT_KEY = 'desk:hiddenSharedDrivesShown';

type MemberItem = vscode.QuickPickItem & { member?: DrivePermission; add?: true };

export function sharedDriveCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;
  const api = (): SharedDrivesApi => host.resources();
  const nameOf = (drive: DriveItem): string => drive.title ?? drive.id;
  const refreshDrives = (): void => host.provider.refresh(host.model().section('sharedDrives'));

  /** The drive of a row (the drive row itself, or any row inside it), else one picked from the user's drives. */
  async function targetDrive(node: DriveNode | undefined, which: 'any' | 'shown' | 'hidden', placeHolder: string): Promise<DriveItem | undefined> {
    let current: DriveNode | undefined = node ?? host.treeView.selection[0];
    while (current && current.kind !== 'section') {
      const row = sharedDriveRow(current);
      if (row) return row.item;
      current = current.parent;
    }
    const drives: DriveItem[] = [];
    for await (const drive of api().allDrives(which === 'any' ? {} : { q: `hidden = ${which === 'hidden'}` })) drives.push(driveAsItem(drive));
    if (drives.length === 0) {
      void vs.window.showInformationMessage(which === 'hidden' ? t('None of your shared drives is hidden.') : t('You are not a member of any shared drive.'));
      return undefined;
    }
    const picked = await vs.window.showQuickPick(drives.map((drive) => ({ label: `$(library) ${nameOf(drive)}`, description: drive.labels?.hidden ? t('hidden') : undefined, drive })), { placeHolder });
    return picked?.drive;
  }

  async function members(drive: DriveItem): Promise<DrivePermission[]> {
    const all: DrivePermission[] = [];
    let pageToken: string | undefined;
    do {
      const page = await api().listPermissions(drive.id, { maxResults: 100, pageToken });
      all.push(...page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return sortMembers(all);
  }

  const memberName = (member: DrivePermission): string => member.name ?? member.emailAddress ?? member.id ?? '';

  async function pickRole(title: string, placeHolder: string, current?: DriveMemberRole): Promise<DriveMemberRole | undefined> {
    const picked = await vs.window.showQuickPick(MEMBER_ROLES.map((role) => ({ label: memberRoleLabel(role, t), description: role === current ? t('current') : memberRoleDetail(role, t), role })), { title, placeHolder });
    return picked?.role;
  }

  async function pickMember(drive: DriveItem, placeHolder: string): Promise<DrivePermission | undefined> {
    const list = await members(drive);
    const picked = await vs.window.showQuickPick(list.map((member) => memberRow(member)), { title: t('Members of “{0}”', nameOf(drive)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.member;
  }

  function memberRow(member: DrivePermission): MemberItem {
    const role = memberRoleOf(member);
    return { label: `$(person) ${memberName(member)}`, description: role ? memberRoleLabel(role, t) : member.role, detail: member.emailAddress, member };
  }

  /** Drive's refusals about members, in words. */
  function explained(error: unknown, drive: DriveItem): unknown {
    if (!(error instanceof GoogleApiError)) return error;
    if (error.reason === 'insufficientFilePermissions') return new Error(t('Only managers of “{0}” can change its members or settings.', nameOf(drive)));
    if (error.reason === 'cannotUpdatePermission' || error.reason === 'cannotDeletePermission') return new Error(t('“{0}” must keep at least one manager.', nameOf(drive)));
    return error;
  }

  async function addMember(drive: DriveItem): Promise<boolean> {
    const title = t('Add members to “{0}”', nameOf(drive));
    const text = await vs.window.showInputBox({ title, prompt: t('E-mail addresses, separated by commas'), placeHolder: 'bob@example.com, carol@example.com', ignoreFocusOut: true, validateInput: (value) => emailsProblem(value, t) });
    if (text === undefined) return false;
    const problem = emailsProblem(text, t);
    if (problem) throw new Error(problem);
    const { emails } = parseEmails(text);
    const role = await pickRole(title, t('What may {0} do in the shared drive?', emails.join(', ')));
    if (!role) return false;
    try {
      for (const email of emails) await api().insertPermission(drive.id, { type: 'user', emailAddress: email, ...memberRoleInput(role) });
    } catch (error) {
      throw explained(error, drive);
    }
    void vs.window.showInformationMessage(t('Added {0} to “{1}” as {2}.', emails.join(', '), nameOf(drive), memberRoleLabel(role, t)));
    return true;
  }

  async function changeRole(drive: DriveItem, chosen?: DrivePermission): Promise<boolean> {
    const member = chosen ?? await pickMember(drive, t('Whose role should change?'));
    if (!member?.id) return false;
    const current = memberRoleOf(member);
    const role = await pickRole(t('Members of “{0}”', nameOf(drive)), t('New role for {0}', memberName(member)), current);
    if (!role || role === current) return false;
    try {
      await api().updatePermission(drive.id, member.id, memberRoleInput(role));
    } catch (error) {
      throw explained(error, drive);
    }
    void vs.window.showInformationMessage(t('{0} is now {1} of “{2}”.', memberName(member), memberRoleLabel(role, t), nameOf(drive)));
    return true;
  }

  async function removeMember(drive: DriveItem, chosen?: DrivePermission): Promise<boolean> {
    const member = chosen ?? await pickMember(drive, t('Who should leave the shared drive?'));
    if (!member?.id) return false;
    const confirmed = await confirmModal(vs, t('Remove {0} from “{1}”?', memberName(member), nameOf(drive)), t('They lose access to every file in the shared drive, unless a file is shared with them on its own.'), t('Remove'));
    if (!confirmed) return false;
    try {
      await api().deletePermission(drive.id, member.id);
    } catch (error) {
      throw explained(error, drive);
    }
    void vs.window.showInformationMessage(t('Removed {0} from “{1}”.', memberName(member), nameOf(drive)));
    return true;
  }

  /** The Members… flow: everyone with their role; add, or pick someone to change or remove. */
  async function manageMembers(drive: DriveItem): Promise<void> {
    if (drive.capabilities?.canManageMembers === false) {
      await vs.window.showQuickPick((await members(drive)).map((member) => memberRow(member)), { title: t('Members of “{0}”', nameOf(drive)), placeHolder: t('Only managers can change who is a member') });
      return;
    }
    for (;;) {
      const list = await members(drive);
      const items: MemberItem[] = [{ label: t('$(add) Add members…'), add: true }, ...list.map((member) => memberRow(member))];
      const picked = await vs.window.showQuickPick(items, { title: t('Members of “{0}”', nameOf(drive)), placeHolder: t('Pick a member to change their role or remove them'), matchOnDescription: true, matchOnDetail: true });
      if (!picked) return;
      if (picked.add) {
        await addMember(drive);
        continue;
      }
      const member = picked.member;
      if (!member) return;
      const action = await vs.window.showQuickPick([
        { label: t('$(edit) Change role…'), action: 'change' as const },
        { label: t('$(person-remove) Remove from the shared drive'), action: 'remove' as const },
      ], { title: memberName(member), placeHolder: t('What should change for {0}?', memberName(member)) });
      if (!action) continue;
      if (action.action === 'change') await changeRole(drive, member);
      else await removeMember(drive, member);
    }
  }

  const onDrive = (which: 'any' | 'shown' | 'hidden', placeHolder: () => string, action: () => string, work: (drive: DriveItem) => Promise<unknown>) =>
    (node?: DriveNode) => attempt(desk, async () => {
      const drive = await targetDrive(node, which, placeHolder());
      if (drive) await work(drive);
    }, { action: action(), retry: true });

  async function setShowHidden(shown: boolean): Promise<void> {
    host.model().showHiddenDrives = shown;
    await vs.commands.executeCommand('setContext', HIDDEN_DRIVES_SHOWN_CONTEXT_KEY, shown);
    refreshDrives();
  }

  return {
    create: () =>
      attempt(desk, async () => {
        const name = await vs.window.showInputBox({ prompt: t('Name of the new shared drive'), placeHolder: t('Team files'), validateInput: (value) => (value.trim() === '' ? t('A shared drive needs a name') : undefined) });
        if (name === undefined) return;
        const drive = await api().insertDrive({ name: name.trim() });
        refreshDrives();
        void vs.window.showInformationMessage(t('Created the shared drive “{0}”; you manage it.', drive.name ?? name.trim()));
      }, { action: t('Could not create the shared drive'), retry: true }),

    rename: onDrive('any', () => t('Which shared drive should be renamed?'), () => t('Could not rename the shared drive'), async (drive) => {
      const name = await vs.window.showInputBox({ prompt: t('New name of the shared drive'), value: nameOf(drive), validateInput: (value) => (value.trim() === '' ? t('A name cannot be empty') : undefined) });
      if (name === undefined || name.trim() === nameOf(drive)) return;
      try {
        await api().updateDrive(drive.id, { name: name.trim() });
      } catch (error) {
        throw explained(error, drive);
      }
      refreshDrives();
    }),

    hide: onDrive('shown', () => t('Which shared drive should be hidden?'), () => t('Could not hide the shared drive'), async (drive) => {
      await api().hideDrive(drive.id);
      refreshDrives();
      if (!host.model().showHiddenDrives) void vs.window.showInformationMessage(t('“{0}” is hidden. Show Hidden Shared Drives lists it again.', nameOf(drive)));
    }),

    unhide: onDrive('hidden', () => t('Which hidden shared drive should be shown again?'), () => t('Could not unhide the shared drive'), async (drive) => {
      await api().unhideDrive(drive.id);
      refreshDrives();
    }),

    delete: onDrive('any', () => t('Which shared drive should be deleted?'), () => t('Could not delete the shared drive'), async (drive) => {
      const notEmpty = (): Error => new Error(t('“{0}” still holds files or folders. Move them out or move them to the trash first; only an empty shared drive can be deleted.', nameOf(drive)));
      const live = await api().listFiles({ corpora: 'drive', driveId: drive.id, includeItemsFromAllDrives: true, q: 'trashed = false', maxResults: 1 });
      if (live.items.length > 0) throw notEmpty();
      const confirmed = await confirmModal(vs, t('Delete the shared drive “{0}”?', nameOf(drive)), t('It is deleted for good with what is in its trash, for every member. This cannot be undone.'), t('Delete'));
      if (!confirmed) return;
      try {
        await api().deleteDrive(drive.id);
      } catch (error) {
        if (error instanceof GoogleApiError && error.reason === 'cannotDeleteResourceWithChildren') throw notEmpty();
        throw explained(error, drive);
      }
      refreshDrives();
      void vs.window.showInformationMessage(t('Deleted the shared drive “{0}”.', nameOf(drive)));
    }),

    members: onDrive('any', () => t('Whose members should be shown?'), () => t('Could not change the members'), manageMembers),
    addMember: onDrive('any', () => t('Add members to which shared drive?'), () => t('Could not add members'), addMember),
    changeMemberRole: onDrive('any', () => t('In which shared drive?'), () => t('Could not change the role'), (drive) => changeRole(drive)),
    removeMember: onDrive('any', () => t('From which shared drive?'), () => t('Could not remove the member'), (drive) => removeMember(drive)),

    showHidden: () => attempt(desk, () => setShowHidden(true)),
    hideHidden: () => attempt(desk, () => setShowHidden(false)),
  };
}
