/**
 * A file's properties: key/value pairs, PUBLIC to every app or PRIVATE to the app (OAuth client) that wrote them.
 * A property is named by key and visibility; inserting an existing one changes its value. Pure: no HTTP. Properties
 * live on the file record (files.list searches them with `properties has { … }`).
 */
import type { PropertyChange, PropertyInput, PropertyVisibility } from '../../../shared/schemas/drive/properties';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, required } from '../../core/errors';
import type { DriveModel, StoredFile } from '../files/model';

export type StoredProperty = StoredFile['properties'][number];

/** Whether the app sees the property (PRIVATE ones written before apps were told apart are everyone's). */
export function visibleTo(property: StoredProperty, appId: string | undefined): boolean {
  return property.visibility === 'PUBLIC' || property.appId === undefined || property.appId === appId;
}

export class PropertiesModel {
  constructor(private readonly files: DriveModel) {}

  list(user: EmulatorUser, fileId: string, appId: string | undefined): { file: StoredFile; properties: StoredProperty[] } {
    const file = this.files.require(user, fileId, 'read');
    return { file, properties: file.properties.filter((property) => visibleTo(property, appId)) };
  }

  get(user: EmulatorUser, fileId: string, key: string, visibility: PropertyVisibility, appId: string | undefined): { file: StoredFile; property: StoredProperty } {
    const file = this.files.require(user, fileId, 'read');
    const property = file.properties.find((candidate) => candidate.key === key && candidate.visibility === visibility && visibleTo(candidate, appId));
    if (!property) throw new ApiError(404, 'notFound', `Property not found: key = ${key} and visibility = ${visibility}`, { location: 'propertyKey', locationType: 'parameter' });
    return { file, property };
  }

  /** Adds the property, or changes the value of the one with the same key and visibility. */
  insert(user: EmulatorUser, fileId: string, input: PropertyInput, appId: string | undefined): { file: StoredFile; property: StoredProperty } {
    const file = this.files.require(user, fileId, 'write');
    const visibility = input.visibility ?? 'PRIVATE';
    return this.write(user, file, input.key, visibility, input.value ?? '', appId);
  }

  /** Changes the value (and, when the body names another visibility, moves the property there). */
  update(user: EmulatorUser, fileId: string, key: string, visibility: PropertyVisibility, input: PropertyChange, appId: string | undefined, replace: boolean): { file: StoredFile; property: StoredProperty } {
    const { file, property } = this.get(user, fileId, key, visibility, appId);
    this.files.require(user, file.id, 'write');
    if (replace && input.value === undefined) throw required('value', 'body');
    const target = input.visibility ?? visibility;
    if (target !== visibility) this.remove(user, file, key, visibility, appId);
    return this.write(user, file, input.key ?? key, target, input.value ?? property.value, appId);
  }

  delete(user: EmulatorUser, fileId: string, key: string, visibility: PropertyVisibility, appId: string | undefined): void {
    const { file } = this.get(user, fileId, key, visibility, appId);
    this.files.require(user, file.id, 'write');
    this.remove(user, file, key, visibility, appId);
  }

  private write(user: EmulatorUser, file: StoredFile, key: string, visibility: PropertyVisibility, value: string, appId: string | undefined): { file: StoredFile; property: StoredProperty } {
    checkLimits(file.properties, key, visibility, value, appId);
    let written: StoredProperty = { key, value, visibility };
    if (visibility === 'PRIVATE' && appId !== undefined) written.appId = appId;
    this.files.mutateFile(file, (changed) => {
      const index = changed.properties.findIndex((candidate) => candidate.key === key && candidate.visibility === visibility && visibleTo(candidate, appId));
      if (index >= 0) {
        written = { ...(changed.properties[index] as StoredProperty), value };
        changed.properties = changed.properties.map((candidate, at) => (at === index ? written : candidate));
      } else {
        changed.properties = [...changed.properties, written];
      }
      changed.version += 1;
    });
    this.files.recordChange(file, user);
    return { file, property: written };
  }

  private remove(user: EmulatorUser, file: StoredFile, key: string, visibility: PropertyVisibility, appId: string | undefined): void {
    this.files.mutateFile(file, (changed) => {
      changed.properties = changed.properties.filter((candidate) => !(candidate.key === key && candidate.visibility === visibility && visibleTo(candidate, appId)));
      changed.version += 1;
    });
    this.files.recordChange(file, user);
  }
}

/** Drive's published limits (the discovery document's Property resource): key and value share 124 bytes of UTF-8. */
export const PROPERTY_LIMITS = { bytes: 124, publicPerFile: 30, privatePerApp: 30, perFile: 100 } as const;

/** Refuses what Drive refuses: a key + value over 124 bytes, or one property more than a file or an app may hold. */
function checkLimits(existing: readonly StoredProperty[], key: string, visibility: PropertyVisibility, value: string, appId: string | undefined): void {
  const bytes = Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  if (bytes > PROPERTY_LIMITS.bytes) {
    throw new ApiError(400, 'badRequest', `The property key and value together are ${bytes} bytes; the limit is ${PROPERTY_LIMITS.bytes} bytes (UTF-8).`);
  }
  const replaces = existing.some((candidate) => candidate.key === key && candidate.visibility === visibility && visibleTo(candidate, appId));
  if (replaces) return;
  if (existing.length >= PROPERTY_LIMITS.perFile) throw new ApiError(400, 'badRequest', `A file may have at most ${PROPERTY_LIMITS.perFile} properties.`);
  const sameKind = visibility === 'PUBLIC'
    ? existing.filter((candidate) => candidate.visibility === 'PUBLIC')
    : existing.filter((candidate) => candidate.visibility === 'PRIVATE' && visibleTo(candidate, appId));
  const limit = visibility === 'PUBLIC' ? PROPERTY_LIMITS.publicPerFile : PROPERTY_LIMITS.privatePerApp;
  if (sameKind.length >= limit) throw new ApiError(400, 'badRequest', `A file may have at most ${limit} ${visibility.toLowerCase()} properties${visibility === 'PRIVATE' ? ' per app' : ''}.`);
}
