/** Drive's properties routes: list, get, insert (or change), update, patch and delete a file's key/value pairs. */
import { renderProperty, renderPropertyList } from './render';
import { appIdOf, DriveRouteKit } from '../routing';
import { requireUser } from '../../core/context';
import { invalid } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import type { PropertyVisibility } from '../../../shared/schemas/drive';
import { propertyChangeSchema, propertyInputSchema } from '../../../shared/schemas/drive/properties';

const BASE = '/drive/v2/files/:fileId/properties';

export function propertyRoutes(kit: DriveRouteKit): Route[] {
  const { properties } = kit.service;
  return [
    { id: 'drive.properties.list', method: 'GET', path: BASE, handle: listProperties },
    { id: 'drive.properties.insert', method: 'POST', path: BASE, handle: insertProperty },
    { id: 'drive.properties.get', method: 'GET', path: `${BASE}/:propertyKey`, handle: getProperty },
    { id: 'drive.properties.update', method: 'PUT', path: `${BASE}/:propertyKey`, handle: updateProperty },
    { id: 'drive.properties.patch', method: 'PATCH', path: `${BASE}/:propertyKey`, handle: patchProperty },
    { id: 'drive.properties.delete', method: 'DELETE', path: `${BASE}/:propertyKey`, handle: deleteProperty },
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
    const { file, properties: items } = properties.list(user, context.params.fileId, appIdOf(context));
    return { json: renderPropertyList(kit.renderContext(context), file, items) };
  }

  function getProperty(context: RequestContext): Reply {
    const user = requireUser(context);
    const { file, property } = properties.get(user, context.params.fileId, context.params.propertyKey, visibilityOf(context), appIdOf(context));
    return { json: renderProperty(kit.renderContext(context), file, property) };
  }

  async function insertProperty(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(propertyInputSchema, await context.json());
    const { file, property } = properties.insert(user, context.params.fileId, input, appIdOf(context));
    return { json: renderProperty(kit.renderContext(context), file, property) };
  }

  async function change(context: RequestContext, replace: boolean): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(propertyChangeSchema, await context.json());
    const visibility = visibilityOf(context);
    const { file, property } = properties.update(user, context.params.fileId, context.params.propertyKey, visibility, input, appIdOf(context), replace);
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
    properties.delete(user, context.params.fileId, context.params.propertyKey, visibilityOf(context), appIdOf(context));
    return { status: 204, empty: true };
  }
}

