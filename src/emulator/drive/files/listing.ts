/**
 * files.list and children.list: where a listing starts (the smallest index bucket the query names), who may see
 * each candidate, the search language, and one page in a stable order. Pure: reads the file table and the access
 * rules, changes nothing. The candidates are matched in time slices: a long query over many files with text (280
 * `fullText contains` over 600 files of 32 KB held the event loop 0.8 s) lets other requests in as it goes.
 */
import { createHash } from 'node:crypto';
import { DEMO_USERS, EmulatorUser } from '../../identity/users';
import { invalid } from '../../core/errors';
import { AccessIndex, allows, Role } from '../permissions/access';
import type { DriveDirectory } from './drives';
import { driveOwnerId, isDriveRoot } from './drives';
import type { ListOptions, ListResult, StoredFile } from './records';
import { compareKeys, decodeCursor, DEFAULT_ORDER, encodeCursor, parseOrderBy, sortKeys } from './order';
import { matches, parseQuery, QueryNode, QuerySyntaxError, QueryTarget, requiredTerms, resolveAliases } from './query';
import type { FileTable } from './table';
import { TimeSlices } from '../../core/slices';
import { lowerBound } from '../../../shared/sorted';

/** What a listing reads. */
export interface ListingSource {
  readonly table: FileTable;
  readonly access: AccessIndex;
  readonly drives: DriveDirectory;
  rootOf(user: EmulatorUser): StoredFile;
}

type Entry = { file: StoredFile; keys: (string | number)[] };

export async function listFiles(source: ListingSource, user: EmulatorUser, options: ListOptions): Promise<ListResult> {
  const root = source.rootOf(user);
  let query: QueryNode | undefined;
  if (options.q !== undefined && options.q.trim() !== '') {
    try {
      query = resolveAliases(parseQuery(options.q), root.id);
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw invalid(error.message, 'q');
      throw error;
    }
  }
  const order = parseOrderBy(options.orderBy ?? DEFAULT_ORDER);
  const fingerprint = createHash('sha1').update(`${user.id}\0${options.parentId ?? ''}\0${options.q ?? ''}\0${options.orderBy ?? ''}\0${options.driveId ?? ''}\0${options.allDrives ? 1 : 0}`).digest('base64url').slice(0, 12);
  const cursor = options.pageToken !== undefined ? decodeCursor(options.pageToken, fingerprint) : undefined;

  const memo = new Map<string, Role | undefined>();
  const compare = (a: Entry, b: Entry): number => compareKeys(a.keys, a.file.id, b.keys, b.file.id, order);
  const cursorEntry = cursor ? { keys: cursor.keys, file: { id: cursor.id } as StoredFile } : undefined;
  const keptKey = `${fingerprint}\0${options.appId ?? ''}`;
  // A later page of a listing whose files have not changed since: found in the matches kept by an earlier page.
  const kept = cursorEntry ? keptListing(source.table, keptKey) : undefined;
  if (kept && cursorEntry) return pageOfKept(kept, cursorEntry, compare, options.maxResults, fingerprint, (file) => source.table.get(file.id) === file && listable(source, user, file, memo, options));
  const selected: Entry[] = [];
  // Taken before the scan, which pauses for other requests: a write meanwhile makes the kept matches stale.
  const version = source.table.version;
  const slices = new TimeSlices();
  for (const file of candidates(source, user, root.id, query, options)) {
    await slices.pause();
    if (file.isRoot || isDriveRoot(file)) continue;
    if (options.parentId !== undefined && !file.parents.includes(options.parentId)) continue;
    if (!listable(source, user, file, memo, options)) continue;
    if (query && !matches(query, queryTarget(source, file, user, options.appId))) continue;
    selected.push({ file, keys: sortKeys(file, order) });
  }
  const listing = keepListing(source.table, keptKey, version, selected);
  if (cursorEntry) return pageOfKept(listing, cursorEntry, compare, options.maxResults, fingerprint, () => true);
  // The first page is ordered alone: entries are kept in a bounded sorted buffer (top-k), so a first page of a
  // 10,000-file folder costs about one comparison per file instead of a full sort (done once, if a second page comes).
  const limit = options.maxResults;
  const page: Entry[] = [];
  let remaining = 0;
  for (const entry of selected) {
    if (cursorEntry && compare(entry, cursorEntry) <= 0) continue;
    remaining++;
    if (page.length === limit && (limit === 0 || compare(entry, page[limit - 1] as Entry) >= 0)) continue;
    let low = 0;
    let high = page.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(page[middle] as Entry, entry) < 0) low = middle + 1;
      else high = middle;
    }
    page.splice(low, 0, entry);
    if (page.length > limit) page.pop();
  }
  const result: ListResult = { files: page.map((entry) => entry.file) };
  const last = page[page.length - 1];
  if (last && remaining > page.length) result.nextPageToken = encodeCursor(fingerprint, { keys: last.keys, id: last.file.id });
  return result;
}

/** The matches of a listing, kept while the file table is unchanged (sorted when a second page asks). */
interface KeptListing {
  readonly key: string;
  readonly version: number;
  readonly entries: Entry[];
  sorted: boolean;
}

/** Listings kept per table, most recent last: a few, as each holds an entry per match. */
const KEPT_LISTINGS = 4;
const keptListings = new WeakMap<FileTable, KeptListing[]>();

function keptListing(table: FileTable, key: string): KeptListing | undefined {
  return keptListings.get(table)?.find((listing) => listing.key === key && listing.version === table.version);
}

function keepListing(table: FileTable, key: string, version: number, entries: Entry[]): KeptListing {
  const listing: KeptListing = { key, version, entries, sorted: false };
  const listings = (keptListings.get(table) ?? []).filter((other) => other.key !== key && other.version === table.version);
  listings.push(listing);
  if (listings.length > KEPT_LISTINGS) listings.shift();
  keptListings.set(table, listings);
  return listing;
}

/**
 * The page after the cursor: a binary search in the sorted matches, then the page itself, so a page costs its own
 * size plus log N. `stillListed` checks what time alone can change (a permission that expired meanwhile).
 */
function pageOfKept(listing: KeptListing, cursor: Entry, compare: (a: Entry, b: Entry) => number, limit: number, fingerprint: string, stillListed: (file: StoredFile) => boolean): ListResult {
  if (!listing.sorted) {
    listing.entries.sort(compare);
    listing.sorted = true;
  }
  const entries = listing.entries;
  let index = lowerBound(entries, (entry) => compare(entry, cursor) <= 0);
  const page: Entry[] = [];
  for (; index < entries.length && page.length < limit; index++) {
    const entry = entries[index] as Entry;
    if (stillListed(entry.file)) page.push(entry);
  }
  const result: ListResult = { files: page.map((entry) => entry.file) };
  const last = page[page.length - 1];
  if (last && index < entries.length) result.nextPageToken = encodeCursor(fingerprint, { keys: last.keys, id: last.file.id });
  return result;
}

/**
 * Whether a file belongs in the user's listing. A drive listing (corpora=drive) holds that drive's items only;
 * any other holds shared-drive items only with includeItemsFromAllDrives, as on Drive. Someone else's file must
 * be visible to the user, and a My Drive file its owner trashed leaves every other user's listings (a trashed
 * shared-drive item stays in its drive for every member).
 */
function listable(source: ListingSource, user: EmulatorUser, file: StoredFile, memo: Map<string, Role | undefined>, options: ListOptions): boolean {
  if (options.driveId !== undefined ? file.driveId !== options.driveId : file.driveId !== undefined && !options.allDrives) return false;
  if (file.ownerId === user.id) return true;
  if (file.trashed && file.driveId === undefined) return false;
  return source.access.roleOf(user, file, memo) !== undefined;
}

/**
 * Where a listing starts: the smallest index bucket the query's required terms name (a folder's children, a
 * title, a drive's items), else everything the user owns plus what was shared with them directly and what lies
 * below it (and, for all drives, the items of every drive they are a member of).
 */
function candidates(source: ListingSource, user: EmulatorUser, rootId: string, query: QueryNode | undefined, options: ListOptions): Iterable<StoredFile> {
  const { table, access } = source;
  const hints = query ? requiredTerms(query) : { parentIds: [], titles: [], trashed: undefined };
  const parentIds = options.parentId !== undefined ? [options.parentId, ...hints.parentIds] : hints.parentIds;
  const buckets: ReadonlySet<string>[] = [];
  for (const id of parentIds) buckets.push(table.childIds(id === 'root' ? rootId : id));
  if (buckets.length === 0 && options.driveId !== undefined) buckets.push(table.ownedBy(driveOwnerId(options.driveId)));
  // `sharedWithMe` holds only files granted to the user directly: the grant index is the whole answer.
  if (buckets.length === 0 && hints.sharedWithMe) buckets.push(access.grantedTo(user.id));
  const shares = access.grantedTo(user.id);
  if (buckets.length === 0 && hints.titles.length > 0 && !options.allDrives && shares.size === 0) {
    for (const title of hints.titles) buckets.push(table.titled(user.id, title));
  }
  let ids: Iterable<string>;
  if (buckets.length > 0) {
    ids = buckets.reduce((smallest, bucket) => (bucket.size < smallest.size ? bucket : smallest));
  } else if (shares.size === 0 && !options.allDrives) {
    ids = table.ownedBy(user.id);
  } else {
    const reachable = new Set<string>(table.ownedBy(user.id));
    if (options.allDrives) for (const driveId of source.drives.memberDrives(user)) for (const id of table.ownedBy(driveOwnerId(driveId))) reachable.add(id);
    const queue: string[] = [...shares];
    while (queue.length > 0) {
      const id = queue.pop() as string;
      if (reachable.has(id) && !shares.has(id)) continue;
      reachable.add(id);
      for (const childId of table.childIds(id)) if (!reachable.has(childId)) queue.push(childId);
    }
    ids = reachable;
  }
  return (function* () {
    for (const id of ids) {
      const file = table.get(id);
      if (file) yield file;
    }
  })();
}

function queryTarget(source: ListingSource, file: StoredFile, viewer: EmulatorUser, appId: string | undefined): QueryTarget {
  const ownerEmail = viewer.id === file.ownerId ? viewer.email : (DEMO_USERS.find((user) => user.id === file.ownerId)?.email ?? '');
  let emails: { writers: string[]; readers: string[] } | undefined;
  const roles = (): { writers: string[]; readers: string[] } => {
    if (emails) return emails;
    emails = { writers: ownerEmail ? [ownerEmail] : [], readers: ownerEmail ? [ownerEmail] : [] };
    for (const user of DEMO_USERS) {
      if (user.email === ownerEmail) continue;
      const role = source.access.roleOf(user, file);
      if (role === undefined) continue;
      emails.readers.push(user.email);
      if (allows(role, 'write', file)) emails.writers.push(user.email);
    }
    return emails;
  };
  let fullText: string | undefined;
  return {
    title: file.title,
    mimeType: file.mimeType,
    // Built and lower-cased once per file, however many fullText terms the query has.
    fullText: () => (fullText ??= `${file.title}\n${file.description ?? ''}\n${file.properties.map((property) => property.value).join(' ')}\n${file.indexableText ?? ''}`.toLowerCase()),
    dates: {
      modifiedDate: file.modifiedDate,
      createdDate: file.createdDate,
      modifiedByMeDate: file.modifiedByMeDate,
      lastViewedByMeDate: file.lastViewedByMeDate,
    },
    trashed: file.trashed,
    starred: file.starred,
    hidden: file.hidden,
    parents: file.parents,
    ownerEmails: ownerEmail ? [ownerEmail] : [],
    get writerEmails() { return roles().writers; },
    get readerEmails() { return roles().readers; },
    properties: file.properties.filter((property) => property.visibility === 'PUBLIC' || property.appId === undefined || property.appId === appId),
    sharedWithMe: file.ownerId !== viewer.id && source.access.grantedTo(viewer.id).has(file.id),
  };
}
