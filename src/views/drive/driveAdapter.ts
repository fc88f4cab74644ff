import type { DriveClient } from '../../api/drive';
import { GoogleApiError } from '../../api/errors';
import type { ChangeSource } from '../../changes/poller';
import type { DriveApi, DriveItem } from './driveApi';

/** The real client seen through the narrow interface the Drive features are written (and tested) against. */
export function adaptDriveClient(client: DriveClient): DriveApi {
  return {
    async about() {
      const about = await client.about();
      return {
        rootFolderId: about.rootFolderId,
        userName: about.user?.displayName ?? about.name,
        userEmail: about.user?.emailAddress,
        quotaBytesTotal: about.quotaBytesTotal,
        quotaBytesUsed: about.quotaBytesUsed,
        quotaBytesUsedInTrash: about.quotaBytesUsedInTrash,
        exportFormats: (about.exportFormats ?? []).flatMap((format) => (format.source ? [{ source: format.source, targets: format.targets ?? [] }] : [])),
      };
    },
    getFile: (fileId) => client.getFile(fileId),
    async listFiles(request) {
      const page = await client.listFiles({ q: request.q, orderBy: request.orderBy, maxResults: request.maxResults, pageToken: request.pageToken });
      return { items: page.items, nextPageToken: page.nextPageToken };
    },
    insertFolder: (title, parentId) => client.insertFolder(title, parentId),
    uploadFile: (metadata, content, options) =>
      client.uploadFile({ title: metadata.title, parents: metadata.parents.map((parent) => ({ id: parent.id })), mimeType: metadata.mimeType }, content, {
        size: options.size,
        signal: options.signal,
        onProgress: options.onProgress ? (sent) => options.onProgress?.(sent) : undefined,
      }),
    updateContent: (fileId, content, options) =>
      client.updateFile(fileId, {}, { content, ifMatch: options.ifMatch, contentType: options.mimeType, uploadType: 'multipart' }),
    patchFile: (fileId, metadata, options = {}) =>
      client.patchFile(
        fileId,
        {
          title: metadata.title,
          mimeType: metadata.mimeType,
          labels: metadata.labels ? { ...metadata.labels } : undefined,
          parents: metadata.parents?.map((parent) => ({ id: parent.id })),
        },
        { addParents: options.addParents, removeParents: options.removeParents, ifMatch: options.ifMatch },
      ),
    copyFile: (fileId, metadata) => client.copyFile(fileId, { title: metadata.title, parents: metadata.parents?.map((parent) => ({ id: parent.id })) }),
    deleteFile: (fileId) => client.deleteFile(fileId),
    trashFile: (fileId) => client.trashFile(fileId),
    untrashFile: (fileId) => client.untrashFile(fileId),
    emptyTrash: () => client.emptyTrash(),
    touchFile: (fileId) => client.touchFile(fileId),
    download: (fileId, options = {}) => client.download(fileId, options),
    exportFile: (fileId, mimeType) => client.exportFile(fileId, mimeType),
  };
}

/** The poller's view of the client: changes.list pages, with the long-poll announcement the client learned. */
export function changeSourceFor(client: DriveClient): ChangeSource {
  return {
    getStartPageToken: (signal) => client.getStartPageToken(signal),
    async listChanges(request) {
      const page = await client.listChanges({
        pageToken: request.pageToken,
        maxResults: 100,
        includeDeleted: true,
        includeSubscribed: true,
        waitSeconds: request.waitSeconds,
        signal: request.signal,
      });
      return { items: page.items, nextPageToken: page.nextPageToken, newStartPageToken: page.newStartPageToken, longPollAvailable: client.supportsLongPoll };
    },
  };
}

/** changes.list answers a stale or unknown page token with 400 or 404. */
export function isInvalidPageToken(error: unknown): boolean {
  return error instanceof GoogleApiError && (error.status === 400 || error.status === 404);
}

export function isSignedOut(error: unknown): boolean {
  return error instanceof GoogleApiError && error.status === 401;
}

export type { DriveItem };
