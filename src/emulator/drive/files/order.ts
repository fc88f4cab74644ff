/** The order of files.list and children.list (orderBy) and their page tokens: the sort position of a page's last file. */
import { FOLDER_MIME_TYPE, isGoogleAppsType } from '../../../shared/schemas/drive';
import { invalid } from '../../core/errors';
import { decodePageToken, encodePageToken, invalidPageToken } from '../../core/paging';
import type { StoredFile } from './model';

export const DEFAULT_ORDER = 'folder,title';
const ORDER_KEYS = ['createdDate', 'folder', 'lastViewedByMeDate', 'modifiedByMeDate', 'modifiedDate', 'quotaBytesUsed', 'recency', 'sharedWithMeDate', 'starred', 'title', 'title_natural'] as const;
type OrderKey = (typeof ORDER_KEYS)[number];
const naturalCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export interface OrderTerm {
  key: OrderKey;
  descending: boolean;
}

export function parseOrderBy(orderBy: string): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const part of orderBy.split(',')) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const [key, direction, ...rest] = words as (string | undefined)[];
    if (!key && words.length === 0 && orderBy.trim() === '') break;
    if (!key || !(ORDER_KEYS as readonly string[]).includes(key) || rest.length > 0 || (direction !== undefined && direction.toLowerCase() !== 'desc' && direction.toLowerCase() !== 'asc')) {
      throw invalid(`Invalid orderBy '${orderBy}'. Sort keys: ${ORDER_KEYS.join(', ')}, each optionally followed by 'desc'`, 'orderBy');
    }
    terms.push({ key: key as OrderKey, descending: direction?.toLowerCase() === 'desc' });
  }
  return terms;
}

export function sortKeys(file: StoredFile, order: readonly OrderTerm[]): (string | number)[] {
  return order.map((term) => {
    switch (term.key) {
      case 'folder': return file.mimeType === FOLDER_MIME_TYPE ? 0 : 1;
      case 'title': return file.title.toLowerCase();
      case 'title_natural': return file.title;
      case 'createdDate': return file.createdDate;
      case 'modifiedDate': return file.modifiedDate;
      case 'modifiedByMeDate': return file.modifiedByMeDate;
      case 'lastViewedByMeDate': return file.lastViewedByMeDate ?? 0;
      case 'sharedWithMeDate': return 0;
      case 'quotaBytesUsed': return isGoogleAppsType(file.mimeType) ? 0 : file.fileSize ?? 0;
      case 'recency': return Math.max(file.modifiedDate, file.modifiedByMeDate, file.lastViewedByMeDate ?? 0, file.createdDate);
      case 'starred': return file.starred ? 1 : 0;
    }
    return 0;
  });
}

export function compareKeys(aKeys: readonly (string | number)[], aId: string, bKeys: readonly (string | number)[], bId: string, order: readonly OrderTerm[]): number {
  for (let index = 0; index < order.length; index++) {
    const term = order[index];
    const a = aKeys[index];
    const b = bKeys[index];
    let result: number;
    if (term.key === 'title_natural') result = naturalCollator.compare(String(a), String(b));
    else result = a < b ? -1 : a > b ? 1 : 0;
    if (result !== 0) return term.descending ? -result : result;
  }
  return aId < bId ? -1 : aId > bId ? 1 : 0;
}

/** Where a page ended: the sort keys and id of its last file. */
export interface Cursor {
  keys: (string | number)[];
  id: string;
}

/** Page tokens are opaque to clients and bound (by `fingerprint`) to the user, folder, query and order that made them. */
export function encodeCursor(fingerprint: string, cursor: Cursor): string {
  return encodePageToken(fingerprint, [...cursor.keys, cursor.id]);
}

export function decodeCursor(token: string, fingerprint: string): Cursor {
  const parts: unknown = decodePageToken(token, fingerprint);
  const id: unknown = Array.isArray(parts) ? parts[parts.length - 1] : undefined;
  if (!Array.isArray(parts) || typeof id !== 'string') throw invalidPageToken(token);
  return { keys: (parts as unknown[]).slice(0, -1) as (string | number)[], id };
}
