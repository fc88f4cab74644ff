/**
 * Sharing a Drive file: the Share… flow (who has access, then add people, change a role, remove access, link
 * sharing, transfer ownership), and each of those as its own command for the palette. Every change re-reads the
 * file, so its row and tooltip show the new access; refusals are explained by the API's reasons (sharing/errors.ts).
 */
import type * as vscode from 'vscode';
import { CancelledError, GoogleApiError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/confirm';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { displayName, isInheritedOnly, linkPermissionOf, linkSentence, peopleOf, permissionRow } from '../sharing/access';
import { emailsProblem, isEmailAddress, parseEmails } from '../sharing/emails';
import { explainSharingError } from '../sharing/errors';
import { linkRoleOptions, roleDetail, roleInput, roleLabel, roleOf, roleOptions, ShareRole } from '../sharing/roles';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';
import { targetFile } from './target';

interface Access {
  readonly file: DriveItem;
  readonly permissions: DrivePermission[];
  readonly me: string | undefined;
}

type Action = 'add' | 'change' | 'remove' | 'link' | 'transfer';
type FlowItem = vscode.QuickPickItem & { action?: Action; permission?: DrivePermission };

export function sharingCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;
  const sharing = () => host.resources();
  const titleOf = (file: DriveItem): string => file.title ?? file.id;

  async function load(fileId: string): Promise<Access> {
    const permissions: DrivePermission[] = [];
    let pageToken: string | undefined;
    const [file, about] = await Promise.all([
      host.api().getFile(fileId),
      host.about().catch(() => undefined),
      (async () => {
        do {
          const page = await sharing().listPermissions(fileId, { maxResults: 100, pageToken });
          permissions.push(...page.items);
          pageToken = page.nextPageToken;
        } while (pageToken);
      })(),
    ]);
    return { file, permissions, me: about?.userEmail };
  }

  /** Re-reads the file after a change so its row (and the tooltip, by the new etag) shows it. */
  async function showChange(fileId: string): Promise<void> {
    await kit.changeEach([fileId], (id) => host.api().getFile(id), { rerender: 'row' });
  }

  /** A refusal as a sentence that says why, else Desk's usual error text. */
  function explained(error: unknown, file: DriveItem): unknown {
    const sentence = explainSharingError(error, file, t);
    return sentence === undefined ? error : new Error(sentence);
  }

  /** The grants that can be changed or removed on this file: not the owner's, not those only inherited from a folder. */
  const changeable = (access: Access): DrivePermission[] => peopleOf(access.permissions).filter((permission) => roleOf(permission) !== 'owner' && !isInheritedOnly(permission));

  async function pickPermission(access: Access, candidates: readonly DrivePermission[], placeHolder: string): Promise<DrivePermission | undefined> {
    if (candidates.length === 0) {
      void vs.window.showInformationMessage(t('Nobody else has access to “{0}” that could be changed here.', titleOf(access.file)));
      return undefined;
    }
    const picked = await vs.window.showQuickPick(candidates.map((permission) => ({ ...permissionRow(permission, access.me, t), permission })), { title: t('Share “{0}”', titleOf(access.file)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.permission;
  }

  async function pickRole(roles: readonly ShareRole[], title: string, placeHolder: string, current?: ShareRole): Promise<ShareRole | undefined> {
    const picked = await vs.window.showQuickPick(roles.map((role) => ({ label: roleLabel(role, t), description: role === current ? t('current') : roleDetail(role, t), role })), { title, placeHolder });
    return picked?.role;
  }

  async function addPeople(access: Access): Promise<boolean> {
    const { file } = access;
    const title = t('Share “{0}”: add people', titleOf(file));
    const text = await vs.window.showInputBox({ title, prompt: t('E-mail addresses, separated by commas'), placeHolder: 'bob@example.com, carol@example.com', ignoreFocusOut: true, validateInput: (value) => emailsProblem(value, t) });
    if (text === undefined) return false;
    const problem = emailsProblem(text, t);
    if (problem) throw new Error(problem);
    const { emails } = parseEmails(text);
    const role = await pickRole(roleOptions(file), title, t('What may {0} do?', emails.join(', ')));
    if (!role) return false;
    const notify = await vs.window.showQuickPick([
      { label: t('$(mail) Notify people'), detail: t('Drive e-mails them a link, with your message if you add one'), notify: true },
      { label: t('$(bell-slash) Do not notify'), detail: t('They find the file under Shared with me'), notify: false },
    ], { title, placeHolder: t('Send an e-mail to the people you add?') });
    if (!notify) return false;
    let emailMessage: string | undefined;
    if (notify.notify) {
      emailMessage = await vs.window.showInputBox({ title, prompt: t('A message for the e-mail (optional)'), placeHolder: t('Press Enter to send the invitation without a message'), ignoreFocusOut: true });
      if (emailMessage === undefined) return false;
    }
    for (const email of emails) {
      await sharing().insertPermission(file.id, { type: 'user', emailAddress: email, ...roleInput(role) }, { sendNotificationEmails: notify.notify, ...(emailMessage ? { emailMessage } : {}) });
    }
    void vs.window.showInformationMessage(t('Shared “{0}” with {1} ({2}).', titleOf(file), emails.join(', '), roleLabel(role, t)));
    return true;
  }

  async function changeRole(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const permission = chosen ?? await pickPermission(access, changeable(access), t('Whose role should change?'));
    if (!permission?.id) return false;
    const current = roleOf(permission);
    const role = await pickRole(roleOptions(access.file), t('Share “{0}”', titleOf(access.file)), t('New role for {0}', displayName(permission)), current);
    if (!role || role === current) return false;
    // Only the role changes: a patch, which leaves the rest of the grant (expiry, notification settings) as it is.
    await sharing().patchPermission(access.file.id, permission.id, roleInput(role));
    void vs.window.showInformationMessage(t('{0} is now {1} of “{2}”.', displayName(permission), roleLabel(role, t), titleOf(access.file)));
    return true;
  }

  async function removeAccess(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const permission = chosen ?? await pickPermission(access, changeable(access), t('Whose access should be removed?'));
    if (!permission?.id) return false;
    await sharing().deletePermission(access.file.id, permission.id);
    void vs.window.showInformationMessage(t('Removed the access of {0} to “{1}”.', displayName(permission), titleOf(access.file)));
    return true;
  }

  async function linkSharing(access: Access): Promise<boolean> {
    const { file } = access;
    const current = linkPermissionOf(access.permissions);
    const currentRole = current?.withLink !== false && current ? roleOf(current) : undefined;
    const off = { label: t('$(lock) Off: only people with access can open it'), description: current ? '' : t('current'), role: undefined };
    const roles = linkRoleOptions(file).map((role) => ({ label: `$(link) ${linkSentence({ type: 'anyone', withLink: true, ...roleInput(role) }, t)}`, description: role === currentRole ? t('current') : '', role }));
    const picked = await vs.window.showQuickPick([off, ...roles], { title: t('Link sharing for “{0}”', titleOf(file)), placeHolder: current ? linkSentence(current, t) : t('Link sharing is off') });
    if (!picked) return false;
    if (!picked.role) {
      if (!current?.id) return false;
      await sharing().deletePermission(file.id, current.id);
      void vs.window.showInformationMessage(t('Link sharing of “{0}” is off.', titleOf(file)));
      return true;
    }
    if (picked.role === currentRole) return false;
    if (current?.id && current.withLink !== false) {
      await sharing().updatePermission(file.id, current.id, roleInput(picked.role));
    } else {
      // No notification can go to "anyone"; without one, repeating the insert is harmless.
      await sharing().insertPermission(file.id, { type: 'anyone', withLink: true, ...roleInput(picked.role) }, { sendNotificationEmails: false });
      // A file public on the web becomes link-only.
      if (current?.id) await sharing().deletePermission(file.id, current.id);
    }
    void vs.window.showInformationMessage(t('“{0}”: {1}.', titleOf(file), linkSentence({ type: 'anyone', withLink: true, ...roleInput(picked.role) }, t)));
    return true;
  }

  /** The person's own grant on the file, if any: their permission id (permissionIds), then permissions.get (404: none). */
  async function grantOf(fileId: string, email: string): Promise<string | undefined> {
    const { id } = await sharing().getIdForEmail(email);
    try {
      const grant = await sharing().getPermission(fileId, id);
      return grant.id ?? id;
    } catch (error) {
      if (error instanceof GoogleApiError && error.isNotFound) return undefined;
      throw error;
    }
  }

  async function transferOwnership(access: Access, chosen?: DrivePermission): Promise<boolean> {
    const { file } = access;
    if (file.driveId !== undefined) throw new Error(t('“{0}” is in a shared drive: items there belong to the drive and have no owner to transfer.', titleOf(file)));
    if (file.ownedByMe === false) throw new Error(t('Only the owner of “{0}” can transfer its ownership.', titleOf(file)));
    let email = chosen?.emailAddress;
    let permissionId = chosen?.id;
    if (!email) {
      const people = peopleOf(access.permissions).filter((permission) => permission.type === 'user' && roleOf(permission) !== 'owner' && permission.emailAddress !== undefined);
      const someoneElse = { label: t('$(mail) Someone else…'), permission: undefined };
      const picked = await vs.window.showQuickPick([...people.map((permission) => ({ ...permissionRow(permission, access.me, t), permission })), someoneElse], { title: t('Transfer the ownership of “{0}”', titleOf(file)), placeHolder: t('Who should own it?') });
      if (!picked) return false;
      email = picked.permission?.emailAddress;
      permissionId = picked.permission?.id;
      if (!email) {
        const typed = await vs.window.showInputBox({ title: t('Transfer the ownership of “{0}”', titleOf(file)), prompt: t('E-mail address of the new owner'), ignoreFocusOut: true, validateInput: (value) => (isEmailAddress(value.trim()) ? undefined : t('“{0}” is not an e-mail address.', value.trim())) });
        if (typed === undefined) return false;
        if (!isEmailAddress(typed.trim())) throw new Error(t('“{0}” is not an e-mail address.', typed.trim()));
        email = typed.trim().toLowerCase();
        // Someone who already has access keeps their grant, which becomes the ownership (as when picked above).
        permissionId = await grantOf(file.id, email);
      }
    }
    const confirmed = await confirmModal(vs, t('Make {0} the owner of “{1}”?', email, titleOf(file)), t('You become an editor. Only the new owner can give the ownership back or remove your access.'), t('Transfer Ownership'));
    if (!confirmed) return false;
    if (permissionId) await sharing().updatePermission(file.id, permissionId, roleInput('owner'), { transferOwnership: true });
    else await sharing().insertPermission(file.id, { type: 'user', emailAddress: email, ...roleInput('owner') });
    void vs.window.showInformationMessage(t('{0} now owns “{1}”.', email, titleOf(file)));
    return true;
  }

  /** The person's own menu in the Share flow. */
  async function personActions(access: Access, permission: DrivePermission): Promise<boolean> {
    const items: FlowItem[] = [];
    const owner = roleOf(permission) === 'owner';
    if (!owner && !isInheritedOnly(permission) && permission.type !== 'anyone') {
      items.push({ label: t('$(edit) Change role…'), action: 'change' }, { label: t('$(trash) Remove access'), action: 'remove' });
    }
    if (permission.type === 'anyone') items.push({ label: t('$(link) Change link sharing…'), action: 'link' });
    if (!owner && permission.type === 'user' && access.file.ownedByMe && access.file.driveId === undefined) items.push({ label: t('$(person) Make owner…'), action: 'transfer' });
    if (items.length === 0) {
      void vs.window.showInformationMessage(owner ? t('{0} owns “{1}”.', displayName(permission), titleOf(access.file)) : t('The access of {0} comes from a folder above “{1}”: change it on that folder.', displayName(permission), titleOf(access.file)));
      return false;
    }
    const picked = await vs.window.showQuickPick(items, { title: displayName(permission), placeHolder: permissionRow(permission, access.me, t).description });
    return picked?.action ? run(picked.action, access, permission) : false;
  }

  function run(action: Action, access: Access, permission?: DrivePermission): Promise<boolean> {
    switch (action) {
      case 'add': return addPeople(access);
      case 'change': return changeRole(access, permission);
      case 'remove': return removeAccess(access, permission);
      case 'link': return linkSharing(access);
      case 'transfer': return transferOwnership(access, permission);
    }
  }

  /** The main list: who has access with their roles, then what can be done. Loops until Escape. */
  async function shareFlow(node?: DriveNode): Promise<void> {
    const target = await targetFile(kit, node);
    if (!target) return;
    for (;;) {
      const access = await load(target.id);
      const { file } = access;
      const canShare = file.capabilities?.['canShare'] !== false;
      const link = linkPermissionOf(access.permissions);
      const items: FlowItem[] = [
        { label: t('People with access'), kind: vs.QuickPickItemKind.Separator },
        ...peopleOf(access.permissions).map((permission) => ({ ...permissionRow(permission, access.me, t), permission })),
        ...(link ? [{ ...permissionRow(link, access.me, t), permission: link }] : []),
        { label: t('Actions'), kind: vs.QuickPickItemKind.Separator },
      ];
      if (canShare) {
        items.push(
          { label: t('$(person-add) Add people…'), action: 'add' },
          { label: t('$(edit) Change role…'), action: 'change' },
          { label: t('$(trash) Remove access…'), action: 'remove' },
          { label: link ? t('$(link) Link sharing: change or turn off…') : t('$(link) Link sharing: turn on…'), action: 'link' },
        );
        if (file.ownedByMe && file.driveId === undefined) items.push({ label: t('$(account) Transfer ownership…'), action: 'transfer' });
      }
      const picked = await vs.window.showQuickPick(items, {
        title: t('Share “{0}”', titleOf(file)),
        placeHolder: canShare ? t('Choose a person to change their access, or an action') : t('You can see who has access, but not change it'),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (!picked) return;
      try {
        const changed = picked.action ? await run(picked.action, access) : picked.permission ? await personActions(access, picked.permission) : false;
        if (changed) await showChange(file.id);
      } catch (error) {
        if (error instanceof CancelledError) return;
        // The flow goes on: the list shows what is true now.
        void desk.showError(explained(error, file), { action: t('Could not change the sharing of “{0}”', titleOf(file)) });
      }
    }
  }

  /** One action as its own command (palette, context menu): the same steps, errors through the command wrapper. */
  const single = (action: Action) => (node?: DriveNode) =>
    attempt(desk, async () => {
      const target = await targetFile(kit, node);
      if (!target) return;
      const access = await load(target.id);
      try {
        if (await run(action, access)) await showChange(access.file.id);
      } catch (error) {
        throw explained(error, access.file);
      }
    }, { action: t('Could not change the sharing') });

  return {
    share: (node?: DriveNode) => attempt(desk, () => shareFlow(node), { action: t('Could not show who has access') }),
    addPeople: single('add'),
    changeRole: single('change'),
    removeAccess: single('remove'),
    linkSharing: single('link'),
    transferOwnership: single('transfer'),
  };
}
