/** The Drive emulator's parts for one running emulator (model, blobs, uploads), built once per emulator. */
import { CommentsModel } from './comments/model';
import { BlobStore } from './content/blobs';
import { Uploads } from './content/uploads';
import { DrivesModel } from './drives/model';
import { DriveModel, StoredFile } from './files/model';
import { LabelsModel } from './labels/model';
import { labelInfoDecorator } from './labels/render';
import { PermissionsModel } from './permissions/model';
import { PropertiesModel } from './properties/model';
import { RevisionsModel } from './revisions/model';
import type { TokenService } from '../identity/tokens';
import { DEMO_USERS } from '../identity/users';
import type { EmulatorUser } from '../identity/users';
import type { RequestContext } from '../core/router';
import { ServiceDeps } from '../core/server';
import { directoryModelFor } from '../directory';
import type { DriveFile } from '../../shared/schemas/drive';
import { AppFiles } from './scopeLimits';

/** The Drive emulator's parts for one running emulator: semantics, content storage, upload sessions. */
export interface DriveService {
  readonly model: DriveModel;
  readonly blobs: BlobStore;
  readonly uploads: Uploads;
  readonly permissions: PermissionsModel;
  readonly comments: CommentsModel;
  readonly properties: PropertiesModel;
  readonly revisions: RevisionsModel;
  readonly labels: LabelsModel;
  readonly drives: DrivesModel;
  /** Whether the user administers the domain (`useDomainAdminAccess`): the Directory emulator knows. */
  isDomainAdmin(user: EmulatorUser): boolean;
  /** Fields other resources add to every rendered file (labelInfo). */
  readonly decorators: ((file: StoredFile, resource: DriveFile, user: EmulatorUser, context: RequestContext) => void)[];
  /** The files each app (OAuth client) created: what a drive.file token reaches. */
  readonly appFiles: AppFiles;
  /** To learn a request's app (OAuth client), whose PRIVATE properties it alone sees. */
  readonly tokens: TokenService;
  /** Resolves once every demo user's root folder is durable. */
  readonly ready: Promise<void>;
  /** Resolves once every metadata change made so far is durable (the store's journal is synced). */
  flush(): Promise<void>;
}

const services = new WeakMap<ServiceDeps, DriveService>();

/** One DriveService per emulator instance (routes and the demo seed share it). */
export function driveServiceFor(deps: ServiceDeps): DriveService {
  let service = services.get(deps);
  if (!service) {
    const blobs = BlobStore.open(deps.store.dataDir);
    const model = new DriveModel(deps.store, deps.now);
    // Roots are created up front and made durable before any request is served, so a root id a client
    // saw never changes after a crash.
    for (const user of DEMO_USERS) model.rootOf(user);
    const permissions = new PermissionsModel(model, deps.now);
    const comments = new CommentsModel(deps.store, model, deps.now);
    const revisions = new RevisionsModel(deps.store, model, deps.now);
    const labels = new LabelsModel(deps.store, model);
    const drives = new DrivesModel(deps.store, model, deps.now);
    service = { appFiles: new AppFiles(deps.store), drives, isDomainAdmin: (user) => directoryModelFor(deps).isAdmin(user), model, blobs, permissions, comments, properties: new PropertiesModel(model), revisions, labels, decorators: [labelInfoDecorator(labels)], tokens: deps.tokens, uploads: new Uploads(deps.store, blobs, deps.now), ready: deps.store.flush(), flush: () => deps.store.flush() };
    services.set(deps, service);
    // Only a durable store can hold orphans from an earlier run; this runs before the server listens.
    // Old revisions' blobs are referenced too (revisions/model.ts).
    if (deps.store.dataDir) blobs.sweep(new Set([...service.model.referencedBlobs(), ...revisions.referencedBlobs()]), service.uploads.expire());
  }
  return service;
}
