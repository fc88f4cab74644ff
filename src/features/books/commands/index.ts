/**
 * The Books commands as one id → handler table behind the one wrapper. Every Books operation is reachable from the
 * tree and the palette: volumes.list (live search), volumes.get (details), bookshelves.list/get/volumes.list (a
 * public library), mylibrary.bookshelves.list/get/volumes.list (the tree, shelf details) and addVolume,
 * removeVolume, moveVolume, clearVolumes.
 */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import { BOOK_DETAILS_SCHEME, detailsDocument, failedDocument } from '../details';
import { registerAccountDocuments } from '../../../core/accounts/accountDocuments';
import type { ShelfMove } from '../tree/dropPlan';
import type { BooksNode, ShelfNode } from '../tree/model';
import { BooksCommandContext, BooksPrompts } from './context';
import { SearchCommands } from './search';
import { ShelfCommands } from './shelves';
import { VolumeCommands } from './volumes';
import { BOOKS_COMMAND } from '../../../config/commandIds';

export type { BooksCommandContext } from './context';
export type { SearchOutcome } from './search';
export type { AddedVolume } from './volumes';

const NODE_KINDS = new Set(['library', 'shelf', 'volume', 'loadMore', 'message']);

/** Tree commands get the clicked row; palette commands get nothing (or something that is not a row). */
function isBooksNode(value: unknown): value is BooksNode {
  return typeof value === 'object' && value !== null && NODE_KINDS.has((value as { kind?: unknown }).kind as string) && typeof (value as { id?: unknown }).id === 'string';
}

export class BooksCommands {
  readonly prompts: BooksPrompts;
  readonly shelves: ShelfCommands;
  readonly volumes: VolumeCommands;
  readonly search: SearchCommands;

  constructor(private readonly context: BooksCommandContext) {
    this.prompts = new BooksPrompts(context);
    this.shelves = new ShelfCommands(context, this.prompts);
    this.volumes = new VolumeCommands(context, this.prompts);
    this.search = new SearchCommands(context, this.prompts, this.volumes);
  }

  /** The commands, and the read-only `desk-book:` documents they open (details.ts). */
  register(): vscode.Disposable[] {
    const { shelves, volumes, search } = this;
    const { desk } = this.context;
    const vs = desk.vs;
    const t = (message: string, ...args: Array<string | number | boolean>): string => vs.l10n.t(message, ...args);
    const details = registerAccountDocuments(vs, desk.session, BOOK_DETAILS_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        try {
          return await detailsDocument(this.context.api(), uri.path, t, vs.env.language, (ms) => desk.clock.dateTime(ms));
        } catch (error) {
          void desk.showError(error, { action: t('Could not load the book details') });
          return failedDocument(error, t);
        }
      },
    });
    const row = <A extends unknown[]>(run: (node: BooksNode | undefined, ...rest: A) => unknown) =>
      (node?: unknown, ...rest: A) => run(isBooksNode(node) ? node : undefined, ...rest);
    const findVolume = async () => (await search.findVolume())?.volume;
    return [details, ...registerCommands(desk, {
      [BOOKS_COMMAND.refresh]: row((node) => { shelves.refresh(node); }),
      [BOOKS_COMMAND.loadMore]: row((node) => shelves.loadMore(node)),
      [BOOKS_COMMAND.search]: row((node, query?: unknown) => search.search(node, query)),
      [BOOKS_COMMAND.addVolume]: row((node) => (node?.kind === 'shelf' ? search.search(node) : volumes.addToShelf(node, undefined, findVolume))),
      [BOOKS_COMMAND.addToShelf]: row((node) => volumes.addToShelf(node, undefined, findVolume)),
      [BOOKS_COMMAND.removeVolume]: row((node) => volumes.removeFromShelf(node)),
      [BOOKS_COMMAND.moveVolume]: row((node, position?: unknown) => volumes.moveWithinShelf(node, position)),
      [BOOKS_COMMAND.clearShelf]: row((node) => shelves.clearShelf(node)),
      [BOOKS_COMMAND.openVolume]: (target?: unknown) => volumes.openVolume(isBooksNode(target) || typeof target === 'string' ? target : undefined),
      [BOOKS_COMMAND.shelfDetails]: row((node) => shelves.shelfDetails(node)),
      [BOOKS_COMMAND.addPublicLibrary]: (userId?: unknown) => shelves.addPublicLibrary(userId),
      [BOOKS_COMMAND.removePublicLibrary]: row((node) => shelves.removePublicLibrary(node)),
    })];
  }

  /** Drag and drop within a shelf. */
  move(shelf: ShelfNode, moves: readonly ShelfMove[]): Promise<void> {
    return this.volumes.move(shelf, moves);
  }
}
