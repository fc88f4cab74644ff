/** Drive's properties routes: list, get, insert (or change), update, patch and delete a file's key/value pairs. */
import type { DriveProperty, PropertyVisibility } from '../../../shared/schemas/drive';
import { propertyChangeSchema, propertyInputSchema, PropertyList } from '../../../shared/schemas/drive/properties';
import { requireUser } from '../../core/context';
import { invalid } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext } from '../../core/router';
import type { StoredFile } from '../files/model';
import { fileUrl, RenderContext } from '../render';
import { appIdOf, DriveRoute, DriveRouteKit } from '../routing';
import type { StoredProperty } from './model';

const BASE = '/drive/v2/files/:fileId/properties';

export function propertyRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { properties } = kit.service;
  return [
    ['GET', BASE, listProperties],
    ['POST', BASE, insertProperty],
    ['GET', `${BASE}/:propertyKey`, getProperty],
    ['PUT', `${BASE}/:propertyKey`, updateProperty],
    ['PATCH', `${BASE}/:propertyKey`, patchProperty],
    ['DELETE', `${BASE}/:propertyKey`, deleteProperty],
  ];

  /** The `visibility` query parameter: 'private' by default, as the discovery document says (either case accepted). */
  function visibilityOf(context: RequestContext): PropertyVisibility {
    const raw = context.query.string('visibility', 16);
    if (raw === undefined || raw === '') return 'PRIVATE';
    const upper = raw.toUpperCase();
    if (upper !== 'PRIVATE' && upper !== 'PUBLIC') throw invalid(`Invalid value '${raw}' for visibility. Allowed values: PRIVATE, PUBLIC`, 'visibility');
    return upper;
  }

  function listProperties(context: RequestContext): Reply {
    const user = requireUser(context);
    const { file, properties: items } = properties.list(user, context.params.fileId as string, appIdOf(kit.service, context));
    const render = kit.renderContext(context);
    const list: PropertyList = { kind: 'drive#propertyList', etag: `"${file.id}.${file.version}"`, selfLink: `${fileUrl(render, file.id)}/properties`, items: items.map((property) => renderProperty(render, file, property)) };
    return { json: list };
  }

  function getProperty(context: RequestContext): Reply {
    const user = requireUser(context);
    const { file, property } = properties.get(user, context.params.fileId as string, context.params.propertyKey as string, visibilityOf(context), appIdOf(kit.service, context));
    return { json: renderProperty(kit.renderContext(context), file, property) };
  }

  async function insertProperty(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(propertyInputSchema, await context.json());
    const { file, property } = properties.insert(user, context.params.fileId as string, input, appIdOf(kit.service, context));
    return { json: renderProperty(kit.renderContext(context), file, property) };
  }

  async function change(context: RequestContext, replace: boolean): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(propertyChangeSchema, await context.json());
    const visibility = visibilityOf(context);
    const { file, property } = properties.update(user, context.params.fileId as string, context.params.propertyKey as string, visibility, input, appIdOf(kit.service, context), replace);
    return { json: renderProperty(kit.renderContext(context), file, property) };
  }

  function updateProperty(context: RequestContext): Promise<Reply> {
    return change(context, true);
  }

  function patchProperty(context: RequestContext): Promise<Reply> {
    return change(context, false);
  }

  function deleteProperty(context: RequestContext): Reply {
    const user = requireUser(context);
    properties.delete(user, context.params.fileId as string, context.params.propertyKey as string, visibilityOf(context), appIdOf(kit.service, context));
    return { status: 204, empty: true };
  }
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
