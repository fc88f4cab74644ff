/** Drive v2 property resources as the API returns them. */
import type { StoredProperty } from './model';
import type { StoredFile } from '../files/model';
import { fileUrl, RenderContext } from '../render';
import type { DriveProperty } from '../../../shared/schemas/drive';
import type { PropertyList } from '../../../shared/schemas/drive/properties';

/** properties.list: every property of the file the calling app may see. */
export function renderPropertyList(context: RenderContext, file: StoredFile, properties: readonly StoredProperty[]): PropertyList {
  return {
    kind: 'drive#propertyList',
    etag: `"${file.id}.${file.version}"`,
    selfLink: `${fileUrl(context, file.id)}/properties`,
    items: properties.map((property) => renderProperty(context, file, property)),
  };
}

export function renderProperty(context: RenderContext, file: StoredFile, property: StoredProperty): DriveProperty {
  return {
    kind: 'drive#property',
    etag: `"${property.key}.${property.visibility}.${file.version}"`,
    selfLink: `${fileUrl(context, file.id)}/properties/${encodeURIComponent(property.key)}?visibility=${property.visibility}`,
    key: property.key,
    value: property.value,
    visibility: property.visibility,
  };
}
