/** Drive's sharing and properties refusals as sentences that say what to do, by the API's error reasons (pure). */
import { GoogleApiError } from '../../../api/errors';
import type { DriveItem } from '../port';
import { myRole } from './access';
import type { Translate } from '../../../shared/l10n';
import { roleLabel } from './roles';

/** The part of a file an explanation reads: its title, the user's role, and whether editors may share it. */
type FileFacts = Pick<DriveItem, 'title' | 'id' | 'writersCanShare' | 'userPermission' | 'ownedByMe'>;

/**
 * A clearer sentence for a refused sharing change, or undefined to let Desk's usual error text stand (network
 * trouble, 5xx after retries, reasons Desk does not know).
 */
export function explainSharingError(error: unknown, file: FileFacts, t: Translate): string | undefined {
  if (!(error instanceof GoogleApiError)) return undefined;
  const title = file.title ?? file.id;
  switch (error.reason) {
    case 'insufficientFilePermissions':
    case 'insufficientPermissions':
    {
      const role = myRole(file);
      if (file.writersCanShare === false && role === 'writer') return t('Only the owner can change who has access to “{0}”: the owner does not let editors share it.', title);
      return role && role !== 'writer' && role !== 'owner'
        ? t('You cannot change who has access to “{0}”: your role there is {1}, and only editors and the owner can.', title, roleLabel(role, t))
        : t('You cannot change who has access to “{0}”.', title);
    }
    case 'cannotRemoveOwner':
      return t('The owner of “{0}” keeps their access: transfer the ownership first.', title);
    case 'invalidOwnershipTransfer':
      return t('The owner of “{0}” cannot be given a lesser role: transfer the ownership instead.', title);
    case 'cannotModifyInheritedPermission':
    case 'cannotDeleteInheritedPermission':
      return t('That access to “{0}” comes from a folder above it: change it on that folder.', title);
    case 'teamDrivesOwnershipTransferNotSupported':
      return t('“{0}” is in a shared drive: items there belong to the drive and have no owner to transfer.', title);
    case 'sharingRateLimitExceeded':
      return t('Drive limits how many people can be invited at once: try again later.');
    case 'invalidSharingRequest':
      return t('Drive refused to share “{0}”: {1}', title, error.message);
    default:
      return undefined;
  }
}

/** The same for properties: only editors may change them. */
export function explainPropertiesError(error: unknown, file: Pick<DriveItem, 'title' | 'id'>, t: Translate): string | undefined {
  if (!(error instanceof GoogleApiError)) return undefined;
  if (error.reason === 'insufficientFilePermissions' || error.reason === 'insufficientPermissions') {
    return t('You cannot change the properties of “{0}”: that needs edit access.', file.title ?? file.id);
  }
  return undefined;
}
