/**
 * Drive's properties resource: list, get, insert, update, patch, delete. Idempotency, per method: every method is
 * safe to repeat. Reads, update (PUT) and delete are idempotent by method; insert changes the value of an existing
 * key + visibility instead of adding a second one, and patch sets a value, so repeating either lands in the same state.
 */
import type { DriveProperty, PropertyInput, PropertyVisibility } from '../../shared/schemas/drive';
import { PropertyChange, PropertyList, propertyListSchema, propertySchema } from '../../shared/schemas/drive/properties';
import { path } from '../http';
import type { DriveContext } from './context';

export function listProperties(drive: DriveContext, fileId: string, signal?: AbortSignal): Promise<PropertyList> {
  return drive.http.json(propertyListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/properties`, signal, operation: 'drive.properties.list' });
}

/** `visibility` defaults to PRIVATE, as on Google. */
export function getProperty(drive: DriveContext, fileId: string, key: string, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> {
  return drive.http.json(propertySchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/properties/${key}`, query: { visibility }, signal, operation: 'drive.properties.get' });
}

/** Adds the property, or changes the value of the one with the same key and visibility. */
export function insertProperty(drive: DriveContext, fileId: string, property: PropertyInput, signal?: AbortSignal): Promise<DriveProperty> {
  return drive.http.json(propertySchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/properties`, json: property, signal, idempotent: true, operation: 'drive.properties.insert' });
}

export function updateProperty(drive: DriveContext, fileId: string, key: string, change: PropertyChange, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> {
  return drive.http.json(propertySchema, { method: 'PUT', path: path`/drive/v2/files/${fileId}/properties/${key}`, query: { visibility }, json: change, signal, operation: 'drive.properties.update' });
}

export function patchProperty(drive: DriveContext, fileId: string, key: string, change: PropertyChange, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> {
  return drive.http.json(propertySchema, { method: 'PATCH', path: path`/drive/v2/files/${fileId}/properties/${key}`, query: { visibility }, json: change, signal, idempotent: true, operation: 'drive.properties.patch' });
}

export function deleteProperty(drive: DriveContext, fileId: string, key: string, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/properties/${key}`, query: { visibility }, signal, operation: 'drive.properties.delete' });
}
