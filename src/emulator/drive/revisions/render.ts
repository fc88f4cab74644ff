/** Drive v2 revision resources as the API returns them (export and download links by kind of file). */
import { createHash } from 'node:crypto';
import { isDocsEditorsFile, StoredRevision } from './model';
import { EXPORT_FORMATS } from '../content/convert';
import type { StoredFile } from '../files/model';
import { driveUser, fileUrl, iso, nextPage, RenderContext } from '../render';
import { DEMO_USERS } from '../../identity/users';
import { DriveRevision, RevisionList } from '../../../shared/schemas/drive/revisions';

/** revisions.list: one page of the file's versions. */
export function renderRevisionList(context: RenderContext, file: StoredFile, revisions: readonly StoredRevision[], nextPageToken: string | undefined): RevisionList {
  return {
    kind: 'drive#revisionList',
    etag: `"revisions-${file.id}-${file.version}"`,
    selfLink: `${fileUrl(context, file.id)}/revisions`,
    items: revisions.map((revision) => renderRevision(context, file, revision)),
    ...nextPage(nextPageToken),
  };
}

export function renderRevision(context: RenderContext, file: StoredFile, revision: StoredRevision): DriveRevision {
  const self = fileUrl(context, file.id);
  const enc = encodeURIComponent;
  const modifier = DEMO_USERS.find((user) => user.id === revision.userId);
  const resource: DriveRevision = {
    kind: 'drive#revision',
    etag: `"${createHash('sha1').update(`${file.id}:${revision.id}:${revision.version}`).digest('base64url').slice(0, 27)}"`,
    id: revision.id,
    selfLink: `${self}/revisions/${enc(revision.id)}`,
    mimeType: revision.mimeType,
    modifiedDate: iso(revision.modifiedDate),
    lastModifyingUser: driveUser(modifier, context.user),
    lastModifyingUserName: modifier?.name ?? 'Unknown user',
  };
  if (isDocsEditorsFile(revision)) {
    resource.published = revision.published;
    resource.publishAuto = revision.publishAuto;
    resource.publishedOutsideDomain = revision.publishedOutsideDomain;
    if (revision.published) resource.publishedLink = `${context.baseUrl}/emulator/v1/drive/open/${enc(file.id)}?revision=${enc(revision.id)}&published=true`;
    const formats = EXPORT_FORMATS[revision.mimeType] ?? [];
    if (formats.length > 0) resource.exportLinks = Object.fromEntries(formats.map((format) => [format, `${self}/revisions/${enc(revision.id)}/export?mimeType=${enc(format)}`]));
    return resource;
  }
  resource.pinned = revision.pinned;
  resource.fileSize = String(revision.fileSize);
  if (revision.md5 !== undefined) resource.md5Checksum = revision.md5;
  if (revision.originalFilename !== undefined) resource.originalFilename = revision.originalFilename;
  resource.downloadUrl = `${self}?alt=media&revisionId=${enc(revision.id)}`;
  return resource;
}
