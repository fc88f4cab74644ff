/**
 * The desk-drive: file system as VS Code sees it: one provider for the tree's editors and the Explorer's workspace
 * folders, registered for the scheme, with the Explorer's outage notice (availability.ts) told when requests fail.
 */
import { UriAccounts } from '../../../core/accounts/accounts';
import type { DeskContext } from '../../../core/deskContext';
import type { DisposableLike } from '../../../core/disposable';
import { DriveFileSystemProvider, type DriveFsOptions } from '../fs/driveFileSystem';
import { DRIVE_SCHEME } from '../fs/drivePath';
import { DriveFolderAvailability } from './availability';
import { recordedAccountOf } from './folderAccounts';

export interface RegisteredDriveFileSystem {
  readonly provider: DriveFileSystemProvider;
  /** The provider, its registration and the outage notice, in the order they are to be disposed. */
  readonly disposables: readonly DisposableLike[];
}

export function registerDriveFileSystem(
  desk: DeskContext,
  { deskShown, ...options }: Omit<DriveFsOptions, 'log' | 'onUnavailable' | 'accounts'> & { readonly deskShown: () => boolean },
): RegisteredDriveFileSystem {
  const vs = desk.vs;
  const availability = new DriveFolderAvailability(vs, { onDidChangeSignedIn: desk.session.onDidChangeSignedIn, onDidChangeBackend: desk.backend.onDidChange, deskShown });
  const provider = new DriveFileSystemProvider(vs, {
    ...options,
    // A path-only URI is read as the account that added its workspace folder, when Desk recorded one.
    accounts: new UriAccounts({ gate: desk.session, legacyAccount: (uri) => recordedAccountOf(desk.extensionContext.globalState, uri.path), t: vs.l10n.t }),
    log: (message) => { desk.log.info(message); },
    onUnavailable: (reason, message) => { availability.report(reason, message); },
  });
  const registration = vs.workspace.registerFileSystemProvider(DRIVE_SCHEME, provider, { isCaseSensitive: true });
  return { provider, disposables: [availability, provider, registration] };
}
