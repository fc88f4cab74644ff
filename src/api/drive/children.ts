/** Drive's children and parents resources: which folders a file is in, seen from either side. */
import {
  ChildList,
  childListSchema,
  ChildReference,
  childReferenceSchema,
  ParentList,
  parentListSchema,
  ParentReference,
  parentReferenceSchema,
} from '../../shared/schemas/drive';
import { path } from '../http';
import { ALL_DRIVES, type DriveContext } from './context';

export interface ListChildrenOptions {
  q?: string;
  orderBy?: string;
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export function listChildren(drive: DriveContext, folderId: string, options: ListChildrenOptions = {}): Promise<ChildList> {
  return drive.http.json(childListSchema, {
    method: 'GET',
    path: path`/drive/v2/files/${folderId}/children`,
    query: { q: options.q, orderBy: options.orderBy, maxResults: options.maxResults, pageToken: options.pageToken },
    signal: options.signal,
    operation: 'drive.children.list',
  });
}

export function getChild(drive: DriveContext, folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> {
  return drive.http.json(childReferenceSchema, { method: 'GET', path: path`/drive/v2/files/${folderId}/children/${childId}`, signal, operation: 'drive.children.get' });
}

/** Idempotent: inserting a child that is already there leaves the folder as it was. */
export function insertChild(drive: DriveContext, folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> {
  return drive.http.json(childReferenceSchema, { method: 'POST', path: path`/drive/v2/files/${folderId}/children`, query: ALL_DRIVES, json: { id: childId }, signal, idempotent: true, operation: 'drive.children.insert' });
}

export function deleteChild(drive: DriveContext, folderId: string, childId: string, signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${folderId}/children/${childId}`, signal, operation: 'drive.children.delete' });
}

export function listParents(drive: DriveContext, fileId: string, signal?: AbortSignal): Promise<ParentList> {
  return drive.http.json(parentListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/parents`, signal, operation: 'drive.parents.list' });
}

export function getParent(drive: DriveContext, fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> {
  return drive.http.json(parentReferenceSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/parents/${parentId}`, signal, operation: 'drive.parents.get' });
}

/** Idempotent: inserting a parent the file already has leaves it as it was. */
export function insertParent(drive: DriveContext, fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> {
  return drive.http.json(parentReferenceSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/parents`, query: ALL_DRIVES, json: { id: parentId }, signal, idempotent: true, operation: 'drive.parents.insert' });
}

export function deleteParent(drive: DriveContext, fileId: string, parentId: string, signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/parents/${parentId}`, signal, operation: 'drive.parents.delete' });
}
