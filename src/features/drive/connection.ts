/**
 * The Drive feature's one connection: the client and its port, built on first use (never during activation), the
 * account's about (asked once), and shared drives by their path name; forgotten when the backend changes.
 */
import { DriveClient } from '../../api/drive';
import { DESK_SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { adaptDriveClient, changeSourceFor } from './driveAdapter';
import { fileChangedBy } from './changes/changeLog';
import type { ChangeSource } from './changes/poller';
import { sanitizeTitle } from './fs/drivePath';
import type { DriveAboutInfo, DriveApi, DriveItem } from './port';

export class DriveConnection {
  private clientValue: DriveClient | undefined;
  private apiValue: DriveApi | undefined;
  private aboutValue: Promise<DriveAboutInfo> | undefined;

  /** `onFileRequest`: a request Desk sends that changes a file (changes/changeLog.ts's fileChangedBy), as it goes out. */
  constructor(private readonly desk: Pick<DeskContext, 'httpClient'>, private readonly onFileRequest: (fileId: string) => void = () => undefined) {}

  /** The port the feature works through. */
  api(): DriveApi {
    if (!this.apiValue) {
      this.clientValue = new DriveClient(this.desk.httpClient((endpoints) => endpoints.drive, DESK_SCOPES, (request) => {
        const fileId = fileChangedBy(request.method, request.path);
        if (fileId) this.onFileRequest(fileId);
      }));
      this.apiValue = adaptDriveClient(this.clientValue);
    }
    return this.apiValue;
  }

  /** The client behind the port (built with it), for the resources the port leaves out (each caller narrows it to its own port). */
  client(): DriveClient {
    this.api();
    return this.clientValue as DriveClient;
  }

  /** The change feed of this connection (changes/changeFeed.ts). */
  changeSource(): ChangeSource {
    return changeSourceFor(this.client());
  }

  about(): Promise<DriveAboutInfo> {
    this.aboutValue ??= this.api().about();
    this.aboutValue.catch(() => { this.aboutValue = undefined; });
    return this.aboutValue;
  }

  /** The top folder of the user's shared drive with this name, for `desk-drive:/Shared drives/<name>/…` paths. */
  async findSharedDrive(name: string): Promise<DriveItem | undefined> {
    for await (const drive of this.client().allDrives()) {
      if (sanitizeTitle(drive.name ?? drive.id) === name) return this.api().getFile(drive.id);
    }
    return undefined;
  }

  /** Another account: the about is asked again. */
  forgetAccount(): void {
    this.aboutValue = undefined;
  }

  /** Another backend: a new client on first use. */
  forgetBackend(): void {
    this.clientValue = undefined;
    this.apiValue = undefined;
    this.aboutValue = undefined;
  }
}
