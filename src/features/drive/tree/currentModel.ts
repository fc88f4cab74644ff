/**
 * The Drive tree model of the first account signed in. Sign-in, sign-out and another backend replace it with a fresh
 * one (renew); the choice to show hidden shared drives carries over. Only the first model reads the view's slot: the
 * last session's rows show at the first start only, and the model owns them (tree/model.ts, tree/snapshot.ts).
 */
import type { ViewSnapshotStore } from '../../../core/viewCache';
import type { DriveApi, DriveItem } from '../port';
import type { SharedDriveSource } from '../sharedDrives/port';
import { DriveTreeModel, SectionNode, TreeModelOptions } from './model';

export interface CurrentModelOptions {
  api(): DriveApi;
  readonly sharedDrives: SharedDriveSource;
  readonly t: NonNullable<TreeModelOptions['t']>;
  /** The view's slot of the first account (tree/snapshot.ts). */
  readonly firstRows: ViewSnapshotStore<DriveItem[]>;
  /** The fresh rows replaced the cached ones: My Drive must be drawn again. */
  onFirstRowsReplaced(myDrive: SectionNode): void;
  /** The cached rows were of an account not signed in (or no one is signed in): the whole tree must be drawn again. */
  onFirstRowsDropped(): void;
}

export class CurrentDriveModel {
  private value: DriveTreeModel;

  constructor(private readonly options: CurrentModelOptions) {
    this.value = new DriveTreeModel(options.api(), {
      sharedDrives: options.sharedDrives,
      t: options.t,
      cache: options.firstRows,
      onFirstRowsReplaced: (myDrive) => options.onFirstRowsReplaced(myDrive),
      onFirstRowsDropped: () => options.onFirstRowsDropped(),
    });
    this.value.prefetchFirstRows();
  }

  get(): DriveTreeModel {
    return this.value;
  }

  /** A fresh model for another account or backend (no cached rows: those were of the session's start). */
  renew(): void {
    const model = new DriveTreeModel(this.options.api(), { sharedDrives: this.options.sharedDrives, t: this.options.t });
    model.showHiddenDrives = this.value.showHiddenDrives;
    this.value = model;
  }
}
