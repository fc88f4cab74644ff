/** HTTP ↔ model for the 12 Books v1 operations at Google's paths, as one flat table of named routes, plus the emulator's Books dev routes. */
import { Bookshelf, ORDER_BY, PRINT_TYPES, PROJECTIONS, Projection, SEARCH_DEFAULT_MAX_RESULTS, SEARCH_MAX_RESULTS, VOLUME_FILTERS, DOWNLOAD_FORMATS } from '../../shared/schemas/books';
import { DEMO_USERS } from '../identity/users';
import { ApiError, required } from '../core/errors';
import { requireUser } from '../core/context';
import type { QueryParams } from '../core/params';
import type { Handler, Reply, RequestContext, Route } from '../core/router';
import type { Store } from '../store/store';
import type { BooksService } from './index';
import type { StoredShelf } from './model';
import { renderBookshelf, renderBookshelves, renderVolume, renderVolumePage, renderVolumes } from './render';
import { parseQuery, textSnippet } from './search';

const BASE = '/books/v1';
const MY_SHELF = `${BASE}/mylibrary/bookshelves/:shelf`;
const USER_SHELF = `${BASE}/users/:userId/bookshelves/:shelf`;

/** Shelf listings page like a search; the discovery document sets no maximum, only 0 as the minimum. */
const SHELF_PAGE = { default: SEARCH_DEFAULT_MAX_RESULTS, min: 0, max: 2 ** 31 - 1 };
const SEARCH_PAGE = { default: SEARCH_DEFAULT_MAX_RESULTS, min: 0, max: SEARCH_MAX_RESULTS };
const START_INDEX = { default: 0, min: 0, max: 2 ** 31 - 1 };

/**
 * The Books routes. Volumes and another user's public shelves are public data on Google (an API key is enough),
 * so they need no token here (`auth: false`); everything under mylibrary is the signed-in user's.
 */
export function booksRoutes(service: BooksService, store: Store): readonly Route[] {
  const { model } = service;
  /** A GET that may create the user's predefined shelves (lazily, as Google does): durable before the answer names them. */
  const createsShelves = (handle: Handler): Handler => async (context) => {
    const reply = await handle(context);
    await store.flush();
    return reply;
  };
  const shelfOf = (context: RequestContext): string => context.params.shelf as string;

  return [
    {
      id: 'books.volumes.list', method: 'GET', path: `${BASE}/volumes`, auth: false,
      handle: async (context) => searchVolumes(service, context),
    },
    {
      id: 'books.volumes.get', method: 'GET', path: `${BASE}/volumes/:volumeId`, auth: false,
      handle: (context) => ({ json: renderVolume(model.volume(context.params.volumeId as string), { baseUrl: context.baseUrl, projection: projectionOf(context.query) }) }),
    },
    {
      id: 'books.bookshelves.list', method: 'GET', path: `${BASE}/users/:userId/bookshelves`, auth: false,
      handle: createsShelves((context) => {
        const userId = context.params.userId as string;
        return { json: renderBookshelves(model.listPublic(userId).map((shelf) => shelfJson(service, shelf, userShelfLink(context, userId, shelf.id)))) };
      }),
    },
    {
      id: 'books.bookshelves.get', method: 'GET', path: USER_SHELF, auth: false,
      handle: createsShelves((context) => {
        const userId = context.params.userId as string;
        const shelf = model.getPublic(userId, shelfOf(context));
        return { json: shelfJson(service, shelf, userShelfLink(context, userId, shelf.id)) };
      }),
    },
    {
      id: 'books.bookshelves.volumes.list', method: 'GET', path: `${USER_SHELF}/volumes`, auth: false,
      handle: createsShelves((context) => {
        context.query.boolean('showPreorders', false);
        return shelfVolumes(service, context, model.getPublic(context.params.userId as string, shelfOf(context)), 'full', undefined);
      }),
    },
    {
      id: 'books.mylibrary.bookshelves.list', method: 'GET', path: `${BASE}/mylibrary/bookshelves`,
      handle: createsShelves((context) => ({ json: renderBookshelves(model.listMine(requireUser(context).id).map((shelf) => shelfJson(service, shelf, myShelfLink(context, shelf.id)))) })),
    },
    {
      id: 'books.mylibrary.bookshelves.get', method: 'GET', path: MY_SHELF,
      handle: createsShelves((context) => {
        const shelf = model.getMine(requireUser(context).id, shelfOf(context));
        return { json: shelfJson(service, shelf, myShelfLink(context, shelf.id)) };
      }),
    },
    {
      id: 'books.mylibrary.bookshelves.volumes.list', method: 'GET', path: `${MY_SHELF}/volumes`,
      handle: createsShelves((context) => {
        context.query.boolean('showPreorders', false);
        const shelf = model.getMine(requireUser(context).id, shelfOf(context));
        return shelfVolumes(service, context, shelf, projectionOf(context.query), context.query.string('q', 2048));
      }),
    },
    {
      id: 'books.mylibrary.bookshelves.addVolume', method: 'POST', path: `${MY_SHELF}/addVolume`,
      handle: (context) => {
        // `reason` (IOS_PREX, IOS_SEARCH, ONBOARDING) is analytics on Google: accepted, validated, not stored.
        context.query.enumValue('reason', ['IOS_PREX', 'IOS_SEARCH', 'ONBOARDING']);
        model.addVolume(requireUser(context).id, shelfOf(context), requiredString(context.query, 'volumeId'));
        return noContent();
      },
    },
    {
      id: 'books.mylibrary.bookshelves.removeVolume', method: 'POST', path: `${MY_SHELF}/removeVolume`,
      handle: (context) => {
        context.query.enumValue('reason', ['ONBOARDING']);
        model.removeVolume(requireUser(context).id, shelfOf(context), requiredString(context.query, 'volumeId'));
        return noContent();
      },
    },
    {
      id: 'books.mylibrary.bookshelves.clearVolumes', method: 'POST', path: `${MY_SHELF}/clearVolumes`,
      handle: (context) => {
        model.clearVolumes(requireUser(context).id, shelfOf(context));
        return noContent();
      },
    },
    {
      id: 'books.mylibrary.bookshelves.moveVolume', method: 'POST', path: `${MY_SHELF}/moveVolume`,
      handle: (context) => {
        const volumeId = requiredString(context.query, 'volumeId');
        if (!context.query.has('volumePosition') || context.query.string('volumePosition') === '') throw required('volumePosition');
        const position = context.query.integer('volumePosition', { min: 0, max: 2 ** 31 - 1 }) as number;
        model.moveVolume(requireUser(context).id, shelfOf(context), volumeId, position);
        return noContent();
      },
    },
    // ---- dev routes
    {
      // The Books user id of each demo account, so tests, scripts and the extension can name another user's shelves.
      id: 'emulator.books.users', method: 'GET', path: '/emulator/v1/books/users', auth: false,
      handle: () => ({ json: { users: DEMO_USERS.map((user) => ({ email: user.email, name: user.name, booksUserId: user.id })) } }),
    },
    {
      // Where infoLink, previewLink and the other browser links of a volume lead: the catalogue entry as a page.
      id: 'emulator.books.volumePage', method: 'GET', path: '/emulator/v1/books/volumes/:volumeId', auth: false,
      handle: (context) => ({ contentType: 'text/html; charset=utf-8', body: renderVolumePage(model.volume(context.params.volumeId as string)) }),
    },
  ];
}

// ---- handlers shared by several routes

async function searchVolumes(service: BooksService, context: RequestContext): Promise<Reply> {
  const { query } = context;
  const q = query.string('q', 2048);
  // Google's answer to a search without terms (the discovery document marks q required).
  if (q === undefined || q.trim() === '') throw new ApiError(400, 'queryRequired', 'Missing query.', { location: 'q', locationType: 'parameter' });
  const startIndex = query.integer('startIndex', START_INDEX) as number;
  const maxResults = query.integer('maxResults', SEARCH_PAGE) as number;
  const orderBy = query.enumValue('orderBy', ORDER_BY, 'relevance') ?? 'relevance';
  const filter = query.enumValue('filter', VOLUME_FILTERS);
  const printType = query.enumValue('printType', PRINT_TYPES, 'all') ?? 'all';
  const download = query.enumValue('download', DOWNLOAD_FORMATS);
  const projection = projectionOf(query);
  const langRestrict = query.string('langRestrict', 35);
  query.enumValue('libraryRestrict', ['my-library', 'no-restrict']);
  query.boolean('showPreorders', false);
  // libraryRestrict=my-library needs a signed-in user; public search routes carry none, so it restricts nothing here.
  const page = (await service.searchIndex()).search({
    query: parseQuery(q),
    startIndex,
    maxResults,
    orderBy,
    printType,
    ...(filter ? { filter } : {}),
    ...(download ? { download } : {}),
    ...(langRestrict ? { langRestrict } : {}),
  });
  const items = page.hits.map((hit) =>
    renderVolume(hit.volume, { baseUrl: context.baseUrl, projection, textSnippet: textSnippet(hit.volume.record.description, hit.matchedTerms) }),
  );
  return { json: renderVolumes(page.totalItems, items) };
}

/** A shelf's volumes in shelf order, paged by startIndex; `q` (mylibrary only) keeps the matching ones. */
async function shelfVolumes(service: BooksService, context: RequestContext, shelf: StoredShelf, projection: Projection, q: string | undefined): Promise<Reply> {
  const startIndex = context.query.integer('startIndex', START_INDEX) as number;
  const maxResults = context.query.integer('maxResults', SHELF_PAGE) as number;
  let volumes = service.model.volumesOn(shelf);
  if (q !== undefined && q.trim() !== '') {
    const matches = (await service.searchIndex()).search({
      query: parseQuery(q),
      startIndex: 0,
      maxResults: volumes.length,
      orderBy: 'relevance',
      printType: 'all',
      within: new Set(volumes.map((volume) => volume.id)),
    });
    const matching = new Set(matches.hits.map((hit) => hit.volume.id));
    volumes = volumes.filter((volume) => matching.has(volume.id));
  }
  const page = volumes.slice(startIndex, startIndex + maxResults).map((volume) => renderVolume(volume, { baseUrl: context.baseUrl, projection }));
  return { json: renderVolumes(volumes.length, page) };
}

function shelfJson(service: BooksService, shelf: StoredShelf, selfLink: string): Bookshelf {
  return renderBookshelf(shelf, selfLink, service.model.volumesOn(shelf).length);
}

function myShelfLink(context: RequestContext, shelfId: number): string {
  return `${context.baseUrl}${BASE}/mylibrary/bookshelves/${shelfId}`;
}

function userShelfLink(context: RequestContext, userId: string, shelfId: number): string {
  return `${context.baseUrl}${BASE}/users/${encodeURIComponent(userId)}/bookshelves/${shelfId}`;
}

function projectionOf(query: QueryParams): Projection {
  return query.enumValue('projection', PROJECTIONS, 'full') ?? 'full';
}

function requiredString(query: QueryParams, name: string): string {
  const value = query.string(name, 256);
  if (value === undefined || value === '') throw required(name);
  return value;
}

function noContent(): Reply {
  return { status: 204, empty: true };
}

