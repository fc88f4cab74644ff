/**
 * The Drive tree model of the account signed in now. Sign-in, sign-out and another backend replace it with a fresh
 * one (renew); the choice to show hidden shared drives carries over, and My Drive's first rows of the last session
 * (core/storage/viewCache.ts) are shared by the models of one session, so they show at the first start only.
 */
import { FirstRowsFromCache, ViewSnapshotStore } from '../../../core/storage/viewCache';
import type { DriveApi, DriveItem } from '../port';
import type { SharedDriveSource } from '../sharedDrives/port';
import { DriveTreeModel, TreeModelOptions } from './model';

export interface CurrentModelOptions {
  api(): DriveApi;
  readonly sharedDrives: SharedDriveSource;
  readonly t: NonNullable<TreeModelOptions['t']>;
  /** Where My Drive's first rows are kept between sessions. */
  readonly firstRows: ViewSnapshotStore<DriveItem[]>;
  /** The fresh rows replaced the cached ones: My Drive must be drawn again. */
  onFirstRowsReplaced(model: DriveTreeModel): void;
  /** The cached rows were another account's (or no one is signed in): the whole tree must be drawn again. */
  onFirstRowsDropped(): void;
}

export class CurrentDriveModel {
  private readonly firstRows: FirstRowsFromCache<DriveItem[]>;
  private value: DriveTreeModel;

  constructor(private readonly options: CurrentModelOptions) {
    this.firstRows = new FirstRowsFromCache(options.firstRows, () => options.onFirstRowsReplaced(this.value), { onDropped: () => options.onFirstRowsDropped() });
    this.value = this.fresh(false);
    this.firstRows.prefetch();
  }

  get(): DriveTreeModel {
    return this.value;
  }

  /** A fresh model for another account or backend. */
  renew(): void {
    this.value = this.fresh(this.value.showHiddenDrives);
  }

  private fresh(showHiddenDrives: boolean): DriveTreeModel {
    const model = new DriveTreeModel(this.options.api(), { sharedDrives: this.options.sharedDrives, t: this.options.t, cache: this.firstRows });
    model.showHiddenDrives = showHiddenDrives;
    return model;
  }
}
