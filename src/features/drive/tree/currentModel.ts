/**
 * The Drive tree model of the first account signed in. Sign-in, sign-out and another backend replace it with a fresh
 * one (renew); the choice to show hidden shared drives carries over. Every model keeps its rows in the view's slot
 * (tree/model.ts owns it, tree/snapshot.ts names it); only the first shows the last session's rows (the session's start).
 */
import type { ViewSnapshotStore } from '../../../core/storage/viewCache';
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
    this.value = this.fresh();
    this.value.prefetchFirstRows();
  }

  get(): DriveTreeModel {
    return this.value;
  }

  /** A fresh model for another account or backend: it saves its rows, and shows none cached (those were of the session's start). */
  renew(): void {
    const model = this.fresh();
    model.reset();
    model.showHiddenDrives = this.value.showHiddenDrives;
    this.value = model;
  }

  private fresh(): DriveTreeModel {
    const { options } = this;
    return new DriveTreeModel(options.api(), {
      sharedDrives: options.sharedDrives,
      t: options.t,
      cache: options.firstRows,
      onFirstRowsReplaced: (myDrive) => { options.onFirstRowsReplaced(myDrive); },
      onFirstRowsDropped: () => { options.onFirstRowsDropped(); },
    });
  }
}
