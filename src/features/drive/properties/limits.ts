/**
 * Drive's limits on custom file properties, checked before a request is sent (pure). From the v2 discovery
 * document's Property resource: at most 124 bytes for key and value together (UTF-8), 30 public properties,
 * 30 private ones per app, 100 in all per file.
 */
import type { DriveProperty, PropertyVisibility } from '../../../shared/schemas/drive';
import type { Translate } from '../../../shared/l10n';

export const MAX_PROPERTY_BYTES = 124;
export const MAX_PUBLIC_PROPERTIES = 30;
export const MAX_PRIVATE_PROPERTIES = 30;
export const MAX_PROPERTIES = 100;

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** Why a key cannot be used (validating the key alone: it must leave room for a value of at least nothing). */
export function keyProblem(key: string, t: Translate): string | undefined {
  if (key.length === 0) return t('Enter a key.');
  if (key.trim() !== key) return t('A key cannot start or end with spaces.');
  const bytes = utf8Length(key);
  if (bytes > MAX_PROPERTY_BYTES) return t('The key is {0} bytes long; key and value may have {1} bytes together.', bytes, MAX_PROPERTY_BYTES);
  return undefined;
}

/** Why this value cannot go with this key: the 124 bytes count both. */
export function valueProblem(key: string, value: string, t: Translate): string | undefined {
  const bytes = utf8Length(key) + utf8Length(value);
  if (bytes > MAX_PROPERTY_BYTES) return t('Key and value are {0} bytes long together; Drive allows {1} (UTF-8).', bytes, MAX_PROPERTY_BYTES);
  return undefined;
}

/** Why one more property of this visibility cannot be added (undefined when it replaces one with the same key). */
export function countProblem(existing: readonly Pick<DriveProperty, 'key' | 'visibility'>[], key: string, visibility: PropertyVisibility, t: Translate): string | undefined {
  const same = (property: Pick<DriveProperty, 'visibility'>): boolean => visibilityOf(property) === visibility;
  if (existing.some((property) => property.key === key && same(property))) return undefined;
  if (existing.length >= MAX_PROPERTIES) return t('A file may have at most {0} properties.', MAX_PROPERTIES);
  const count = existing.filter(same).length;
  if (visibility === 'PUBLIC' && count >= MAX_PUBLIC_PROPERTIES) return t('A file may have at most {0} public properties.', MAX_PUBLIC_PROPERTIES);
  if (visibility === 'PRIVATE' && count >= MAX_PRIVATE_PROPERTIES) return t('A file may have at most {0} private properties per app.', MAX_PRIVATE_PROPERTIES);
  return undefined;
}

/** A property's visibility; Drive's default is PRIVATE. */
export function visibilityOf(property: Pick<DriveProperty, 'visibility'>): PropertyVisibility {
  return property.visibility === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
}

export function visibilityLabel(visibility: PropertyVisibility, t: Translate): string {
  return visibility === 'PUBLIC' ? t('Public: every app sees it') : t('Private: only Desk sees it');
}

/** The properties in the order the editor lists them: by key, public before private. */
export function sortProperties<T extends Pick<DriveProperty, 'key' | 'visibility'>>(properties: readonly T[]): T[] {
  return [...properties].sort((a, b) => a.key.localeCompare(b.key) || visibilityOf(b).localeCompare(visibilityOf(a)));
}
