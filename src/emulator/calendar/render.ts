/** What the Calendar resources' renderings share: the envelope of a listed collection. */

/** A page of a collection (acl, calendarList, settings) as Google answers it: tokens only when there are any. */
export function renderCollection<T>(
  kind: string,
  page: { readonly etag: string; readonly nextPageToken?: string | undefined; readonly nextSyncToken?: string | undefined; readonly items: readonly T[] },
  render: (item: T) => unknown,
): Record<string, unknown> {
  return {
    kind,
    etag: page.etag,
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
    items: page.items.map(render),
  };
}
