/** Maps the real DriveClient onto the Drive port and the change poller's source. */
import type { DriveClient } from '../../api/drive';
import { GoogleApiError } from '../../api/errors';
import type { ChangeSource } from './changes/poller';
import type { DriveApp } from '../../shared/schemas/drive';
import { FOLDER_MIME_TYPE } from '../../shared/schemas/drive';
import { DriveApi, DriveAppInfo } from './port';

function appInfo(app: DriveApp): DriveAppInfo {
  return { id: app.id, name: app.name, shortDescription: app.shortDescription, details: app };
}

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
      const page = await client.listFiles({ q: request.q, orderBy: request.orderBy, maxResults: request.maxResults, pageToken: request.pageToken, includeItemsFromAllDrives: request.includeItemsFromAllDrives, corpora: request.corpora, driveId: request.driveId, fields: request.fields });
      return { items: page.items, nextPageToken: page.nextPageToken };
    },
    async insertFolder(title, parentId) {
      // A client-chosen id makes the insert safe to retry after a lost answer: it cannot create a second folder.
      const id = (await client.generateIds(1)).at(0);
      if (id === undefined) return client.insertFolder(title, parentId);
      return client.insertFileWithId({ id, title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] });
    },
    // Without an id, insertFile takes one from the client's generateIds pool: safe to retry either way.
    insertEmptyFile: (title, parentId, options = {}) => client.insertFile({ ...(options.id ? { id: options.id } : {}), title, mimeType: options.mimeType ?? 'text/plain', parents: [{ id: parentId }] }),
    generateIds: (count) => client.generateIds(count),
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
    trashFiles: (fileIds) => client.trashFiles(fileIds),
    untrashFiles: (fileIds) => client.untrashFiles(fileIds),
    deleteFiles: (fileIds) => client.deleteFiles(fileIds),
    moveFiles: (moves) => client.moveFiles(moves),
    emptyTrash: (driveId) => (driveId === undefined ? client.emptyTrash() : client.emptyDriveTrash(driveId)),
    touchFile: (fileId) => client.touchFile(fileId),
    download: (fileId, options = {}) => client.download(fileId, options),
    exportFile: (fileId, mimeType) => client.exportFile(fileId, mimeType),
    async insertParent(fileId, parentId) {
      await client.insertParent(fileId, parentId);
    },
    deleteParent: (fileId, parentId) => client.deleteParent(fileId, parentId),
    async listParents(fileId) {
      return (await client.listParents(fileId)).items.map((parent) => ({ id: parent.id, isRoot: parent.isRoot }));
    },
    async hasChild(folderId, childId) {
      try {
        await client.getChild(folderId, childId);
        return true;
      } catch (error) {
        if (error instanceof GoogleApiError && error.isNotFound) return false;
        throw error;
      }
    },
    deleteChild: (folderId, childId) => client.deleteChild(folderId, childId),
    async insertChild(folderId, childId) {
      await client.insertChild(folderId, childId);
    },
    async listChildren(folderId, pageToken) {
      const page = await client.listChildren(folderId, { pageToken, maxResults: 1000 });
      return { ids: page.items.map((child) => child.id), nextPageToken: page.nextPageToken };
    },
    async listApps() {
      return (await client.listApps()).items.map(appInfo);
    },
    getApp: async (appId) => appInfo(await client.getApp(appId)),
  };
}

/** The poller's view of the client: changes.list pages, with the long-poll announcement the client learned. */
export function changeSourceFor(client: DriveClient): ChangeSource {
  return {
    startToken: (signal) => client.getStartPageToken(signal),
    async listPage(request) {
      const page = await client.listChanges({
        pageToken: request.pageToken,
        maxResults: 100,
        includeDeleted: true,
        includeSubscribed: true,
        // Shared drives' items and the drives themselves (changeType 'drive') are news too.
        includeItemsFromAllDrives: true,
        waitSeconds: request.waitSeconds,
        signal: request.signal,
      });
      return { items: page.items, nextPageToken: page.nextPageToken, resumeToken: page.newStartPageToken, longPollAvailable: client.supportsLongPoll };
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
