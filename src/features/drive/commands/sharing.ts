/**
 * Sharing a Drive file: the Share… flow (who has access, then add people, change a role, remove access, link
 * sharing, transfer ownership), and each of those as its own command for the palette. Every change re-reads the
 * file, so its row and tooltip show the new access; refusals are explained by the API's reasons (sharing/errors.ts).
 */
import type * as vscode from 'vscode';
import { CancelledError, GoogleApiError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import { nameInMessage } from '../../../core/text/names';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { displayName, isInheritedOnly, linkPermissionOf, linkSentence, peopleOf, permissionRow } from '../sharing/access';
import { isEmailAddress } from '../sharing/emails';
import { explainSharingError } from '../sharing/errors';
import { linkRoleOptions, roleDetail, roleInput, roleLabel, roleOf, roleOptions, ShareRole } from '../sharing/roles';
import type { DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';
import { appendAll } from '../../../shared/arrays';

interface Access {
  readonly file: DriveItem;
  readonly permissions: DrivePermission[];
  readonly me: string | undefined;
}

type Action = 'add' | 'change' | 'remove' | 'link' | 'transfer';
type FlowItem = vscode.QuickPickItem & { action?: Action; permission?: DrivePermission };

export class DriveSharingCommands extends DriveCommandPart {
  /** An expiration ("until Fri 27 Nov") as Desk's clock writes a day. */
  private readonly day = (ms: number): string => this.host.desk.clock.day(ms);

  private sharing() {
    return this.host.resources();
  }

  private async load(fileId: string): Promise<Access> {
    const permissions: DrivePermission[] = [];
    let pageToken: string | undefined;
    const [file, about] = await Promise.all([
      this.host.api().getFile(fileId),
      this.host.about().catch(() => undefined),
      (async () => {
        do {
          const page = await this.sharing().listPermissions(fileId, { maxResults: 100, pageToken });
          appendAll(permissions, page.items);
          pageToken = page.nextPageToken;
        } while (pageToken);
      })(),
    ]);
    return { file, permissions, me: about?.userEmail };
  }

  /** Re-reads the file after a change so its row (and the tooltip, by the new etag) shows it. */
  private async showChange(fileId: string): Promise<void> {
    await this.context.changeEach([fileId], (id) => this.host.api().getFile(id), { rerender: 'row' });
  }

  /** A refusal as a sentence that says why, else Desk's usual error text. */
  private explained(error: unknown, file: DriveItem): unknown {
    const sentence = explainSharingError(error, file, this.t);
    return sentence === undefined ? error : new Error(sentence);
  }

  /** The grants that can be changed or removed on this file: not the owner's, not those only inherited from a folder. */
  private changeable(access: Access): DrivePermission[] {
    return peopleOf(access.permissions).filter((permission) => roleOf(permission) !== 'owner' && !isInheritedOnly(permission));
  }

  private async pickPermission(access: Access, candidates: readonly DrivePermission[], placeHolder: string): Promise<DrivePermission | undefined> {
    if (candidates.length === 0) {
      void this.vs.window.showInformationMessage(this.t('Nobody else has access to “{0}” that could be changed here.', this.titleOf(access.file)));
      return undefined;
    }
    const picked = await this.vs.window.showQuickPick(candidates.map((permission) => ({ ...permissionRow(permission, access.me, this.t, this.day), permission })), { title: this.t('Share “{0}”', this.titleOf(access.file)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.permission;
  }

  private async pickRole(roles: readonly ShareRole[], title: string, placeHolder: string, current?: ShareRole): Promise<ShareRole | undefined> {
    const picked = await this.vs.window.showQuickPick(roles.map((role) => ({ label: roleLabel(role, this.t), description: role === current ? this.t('current') : roleDetail(role, this.t), role })), { title, placeHolder });
    return picked?.role;
  }

  private async addPeopleTo(access: Access): Promise<boolean> {
    const { file } = access;
    const title = this.t('Share “{0}”: add people', this.titleOf(file));
    // The addresses and the message typed last time and not sent (Escape on a later step, a refusal) come back.
    const draft = this.context.drafts.open(`add-people/${file.id}`, { emails: '', message: '' });
    const emails = await this.context.askEmails(title, draft);
    if (!emails) return false;
    const role = await this.pickRole(roleOptions(file), title, this.t('What may {0} do?', emails.join(', ')));
    if (!role) return false;
    const notify = await this.vs.window.showQuickPick([
      { label: this.t('$(mail) Notify people'), detail: this.t('Drive e-mails them a link, with your message if you add one'), notify: true },
      { label: this.t('$(bell-slash) Do not notify'), detail: this.t('They find the file under Shared with me'), notify: false },
    ], { title, placeHolder: this.t('Send an e-mail to the people you add?') });
    if (!notify) return false;
    let emailMessage: string | undefined;
    if (notify.notify) {
      emailMessage = await draft.ask('message', this.t('A message for the e-mail (optional)'), this.t, (box) => this.vs.window.showInputBox({ title, placeHolder: this.t('Press Enter to send the invitation without a message'), ignoreFocusOut: true, ...box }));
      if (emailMessage === undefined) return false;
    }
    const done: string[] = [];
    for (const email of emails) {
      try {
        await this.sharing().insertPermission(file.id, { type: 'user', emailAddress: email, ...roleInput(role) }, { sendNotificationEmails: notify.notify, ...(emailMessage ? { emailMessage } : {}) });
      } catch (error) {
        // The error says why this one failed; say who already has access and who was not added, not only the failure.
        if (done.length > 0) void this.vs.window.showWarningMessage(this.t('Shared “{0}” with {1}; not with {2}.', this.titleOf(file), done.join(', '), emails.slice(done.length).join(', ')));
        // Next time the dialog offers the people not added yet, with the same message.
        draft.keep('emails', emails.slice(done.length).join(', '));
        throw error;
      }
      done.push(email);
    }
    draft.drop();
    void this.vs.window.showInformationMessage(this.t('Shared “{0}” with {1} ({2}).', this.titleOf(file), emails.join(', '), roleLabel(role, this.t)));
    return true;
  }

  private async changeRoleOf(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const permission = chosen ?? await this.pickPermission(access, this.changeable(access), this.t('Whose role should change?'));
    if (!permission?.id) return false;
    const current = roleOf(permission);
    const role = await this.pickRole(roleOptions(access.file), this.t('Share “{0}”', this.titleOf(access.file)), this.t('New role for {0}', displayName(permission)), current);
    if (!role || role === current) return false;
    // Only the role changes: a patch, which leaves the rest of the grant (expiry, notification settings) as it is.
    await this.sharing().patchPermission(access.file.id, permission.id, roleInput(role));
    void this.vs.window.showInformationMessage(this.t('{0} is now {1} of “{2}”.', displayName(permission), roleLabel(role, this.t), this.titleOf(access.file)));
    return true;
  }

  private async removeAccessOf(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const permission = chosen ?? await this.pickPermission(access, this.changeable(access), this.t('Whose access should be removed?'));
    if (!permission?.id) return false;
    await this.sharing().deletePermission(access.file.id, permission.id);
    void this.vs.window.showInformationMessage(this.t('Removed the access of {0} to “{1}”.', displayName(permission), this.titleOf(access.file)));
    return true;
  }

  private async changeLinkSharing(access: Access): Promise<boolean> {
    const { file } = access;
    const current = linkPermissionOf(access.permissions);
    const currentRole = current?.withLink !== false && current ? roleOf(current) : undefined;
    const off = { label: this.t('$(lock) Off: only people with access can open it'), description: current ? '' : this.t('current'), role: undefined };
    const roles = linkRoleOptions(file).map((role) => ({ label: `$(link) ${linkSentence({ type: 'anyone', withLink: true, ...roleInput(role) }, this.t)}`, description: role === currentRole ? this.t('current') : '', role }));
    const picked = await this.vs.window.showQuickPick([off, ...roles], { title: this.t('Link sharing for “{0}”', this.titleOf(file)), placeHolder: current ? linkSentence(current, this.t) : this.t('Link sharing is off') });
    if (!picked) return false;
    if (!picked.role) {
      if (!current?.id) return false;
      await this.sharing().deletePermission(file.id, current.id);
      void this.vs.window.showInformationMessage(this.t('Link sharing of “{0}” is off.', this.titleOf(file)));
      return true;
    }
    if (picked.role === currentRole) return false;
    if (current?.id && current.withLink !== false) {
      await this.sharing().updatePermission(file.id, current.id, roleInput(picked.role));
    } else {
      // No notification can go to "anyone"; without one, repeating the insert is harmless.
      await this.sharing().insertPermission(file.id, { type: 'anyone', withLink: true, ...roleInput(picked.role) }, { sendNotificationEmails: false });
      // A file public on the web becomes link-only.
      if (current?.id) await this.sharing().deletePermission(file.id, current.id);
    }
    void this.vs.window.showInformationMessage(this.t('“{0}”: {1}.', this.titleOf(file), linkSentence({ type: 'anyone', withLink: true, ...roleInput(picked.role) }, this.t)));
    return true;
  }

  /** The person's own grant on the file, if any: their permission id (permissionIds), then permissions.get (404: none). */
  private async grantOf(fileId: string, email: string): Promise<string | undefined> {
    const { id } = await this.sharing().getIdForEmail(email);
    try {
      const grant = await this.sharing().getPermission(fileId, id);
      return grant.id ?? id;
    } catch (error) {
      if (error instanceof GoogleApiError && error.isNotFound) return undefined;
      throw error;
    }
  }

  private async transferOwnershipOf(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const { file } = access;
    if (file.driveId !== undefined) throw new Error(this.t('“{0}” is in a shared drive: items there belong to the drive and have no owner to transfer.', this.titleOf(file)));
    if (file.ownedByMe === false) throw new Error(this.t('Only the owner of “{0}” can transfer its ownership.', this.titleOf(file)));
    let email = chosen?.emailAddress;
    let permissionId = chosen?.id;
    if (!email) {
      const people = peopleOf(access.permissions).filter((permission) => permission.type === 'user' && roleOf(permission) !== 'owner' && permission.emailAddress !== undefined);
      const someoneElse = { label: this.t('$(mail) Someone else…'), permission: undefined };
      const picked = await this.vs.window.showQuickPick([...people.map((permission) => ({ ...permissionRow(permission, access.me, this.t, this.day), permission })), someoneElse], { title: this.t('Transfer the ownership of “{0}”', this.titleOf(file)), placeHolder: this.t('Who should own it?') });
      if (!picked) return false;
      email = picked.permission?.emailAddress;
      permissionId = picked.permission?.id;
      if (!email) {
        const typed = await this.vs.window.showInputBox({ title: this.t('Transfer the ownership of “{0}”', this.titleOf(file)), prompt: this.t('E-mail address of the new owner'), ignoreFocusOut: true, validateInput: (value) => (isEmailAddress(value.trim()) ? undefined : this.t('“{0}” is not an e-mail address.', nameInMessage(value.trim()))) });
        if (typed === undefined) return false;
        if (!isEmailAddress(typed.trim())) throw new Error(this.t('“{0}” is not an e-mail address.', typed.trim()));
        email = typed.trim().toLowerCase();
        // Someone who already has access keeps their grant, which becomes the ownership (as when picked above).
        permissionId = await this.grantOf(file.id, email);
      }
    }
    const confirmed = await confirmModal(this.vs, this.t('Make {0} the owner of “{1}”?', email, this.titleOf(file)), this.t('You become an editor. Only the new owner can give the ownership back or remove your access.'), this.t('Transfer Ownership'));
    if (!confirmed) return false;
    if (permissionId) await this.sharing().updatePermission(file.id, permissionId, roleInput('owner'), { transferOwnership: true });
    else await this.sharing().insertPermission(file.id, { type: 'user', emailAddress: email, ...roleInput('owner') });
    void this.vs.window.showInformationMessage(this.t('{0} now owns “{1}”.', email, this.titleOf(file)));
    return true;
  }

  /** The person's own menu in the Share flow. */
  private async personActions(access: Access, permission: DrivePermission): Promise<boolean> {
    const items: FlowItem[] = [];
    const owner = roleOf(permission) === 'owner';
    if (!owner && !isInheritedOnly(permission) && permission.type !== 'anyone') {
      items.push({ label: this.t('$(edit) Change role…'), action: 'change' }, { label: this.t('$(trash) Remove access'), action: 'remove' });
    }
    if (permission.type === 'anyone') items.push({ label: this.t('$(link) Change link sharing…'), action: 'link' });
    if (!owner && permission.type === 'user' && access.file.ownedByMe && access.file.driveId === undefined) items.push({ label: this.t('$(person) Make owner…'), action: 'transfer' });
    if (items.length === 0) {
      void this.vs.window.showInformationMessage(owner ? this.t('{0} owns “{1}”.', displayName(permission), this.titleOf(access.file)) : this.t('The access of {0} comes from a folder above “{1}”: change it on that folder.', displayName(permission), this.titleOf(access.file)));
      return false;
    }
    const picked = await this.vs.window.showQuickPick(items, { title: displayName(permission), placeHolder: permissionRow(permission, access.me, this.t, this.day).description });
    return picked?.action ? this.run(picked.action, access, permission) : false;
  }

  private run(action: Action, access: Access, permission?: DrivePermission): Promise<boolean> {
    switch (action) {
      case 'add': return this.addPeopleTo(access);
      case 'change': return this.changeRoleOf(access, permission);
      case 'remove': return this.removeAccessOf(access, permission);
      case 'link': return this.changeLinkSharing(access);
      case 'transfer': return this.transferOwnershipOf(access, permission);
    }
  }

  /** The main list: who has access with their roles, then what can be done. Loops until Escape. */
  private async shareFlow(node?: DriveNode): Promise<void> {
    const target = await this.context.targetFile(node);
    if (!target) return;
    for (;;) {
      const access = await this.load(target.id);
      const { file } = access;
      const canShare = file.capabilities?.['canShare'] !== false;
      const link = linkPermissionOf(access.permissions);
      const items: FlowItem[] = [
        { label: this.t('People with access'), kind: this.vs.QuickPickItemKind.Separator },
        ...peopleOf(access.permissions).map((permission) => ({ ...permissionRow(permission, access.me, this.t, this.day), permission })),
        ...(link ? [{ ...permissionRow(link, access.me, this.t, this.day), permission: link }] : []),
        { label: this.t('Actions'), kind: this.vs.QuickPickItemKind.Separator },
      ];
      if (canShare) {
        items.push(
          { label: this.t('$(person-add) Add people…'), action: 'add' },
          { label: this.t('$(edit) Change role…'), action: 'change' },
          { label: this.t('$(trash) Remove access…'), action: 'remove' },
          { label: link ? this.t('$(link) Link sharing: change or turn off…') : this.t('$(link) Link sharing: turn on…'), action: 'link' },
        );
        if (file.ownedByMe && file.driveId === undefined) items.push({ label: this.t('$(account) Transfer ownership…'), action: 'transfer' });
      }
      const picked = await this.vs.window.showQuickPick(items, {
        title: this.t('Share “{0}”', this.titleOf(file)),
        placeHolder: canShare ? this.t('Choose a person to change their access, or an action') : this.t('You can see who has access, but not change it'),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (!picked) return;
      try {
        const changed = picked.action ? await this.run(picked.action, access) : picked.permission ? await this.personActions(access, picked.permission) : false;
        if (changed) await this.showChange(file.id);
      } catch (error) {
        if (error instanceof CancelledError) return;
        // The flow goes on: the list shows what is true now.
        void this.desk.showError(this.explained(error, file), { action: this.t('Could not change the sharing of “{0}”', this.titleOf(file)) });
      }
    }
  }

  /** One action as its own command (palette, context menu): the same steps, errors through the command wrapper. */
  private single(action: Action) {
    return (node?: DriveNode) =>
    attempt(this.desk, async () => {
      const target = await this.context.targetFile(node);
      if (!target) return;
      const access = await this.load(target.id);
      try {
        if (await this.run(action, access)) await this.showChange(access.file.id);
      } catch (error) {
        throw this.explained(error, access.file);
      }
    }, { action: this.t('Could not change the sharing') });
  }

  share(node?: DriveNode) {
    return attempt(this.desk, () => this.shareFlow(node), { action: this.t('Could not show who has access') });
  }

  readonly addPeople = this.single('add');

  readonly changeRole = this.single('change');

  readonly removeAccess = this.single('remove');

  readonly linkSharing = this.single('link');

  readonly transferOwnership = this.single('transfer');
}
