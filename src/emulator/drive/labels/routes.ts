/**
 * Drive's label routes: files.listLabels and files.modifyLabels (labelInfo on files is labels/render.ts's decorator),
 * and the label definitions (the Drive Labels API v2's labels.list / labels.get, which the emulator serves on its
 * one root) that say which fields each label has.
 */
import { findLabelDefinition, LABEL_DEFINITIONS } from './definitions';
import { copyDefinition, renderDefinitionList, renderLabelList, renderModifyLabelsResponse } from './render';
import type { DriveRouteKit } from '../routing';
import { requireUser } from '../../core/context';
import { ApiError } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { modifyLabelsRequestSchema } from '../../../shared/schemas/drive/labels';

export function labelRoutes(kit: DriveRouteKit): Route[] {
  const { labels } = kit.service;
  return [
    { id: 'drive.files.listLabels', method: 'GET', path: '/drive/v2/files/:fileId/listLabels', handle: listLabels },
    { id: 'drive.files.modifyLabels', method: 'POST', path: '/drive/v2/files/:fileId/modifyLabels', handle: modifyLabels },
    { id: 'drivelabels.labels.list', method: 'GET', path: '/v2/labels', handle: listDefinitions },
    { id: 'drivelabels.labels.get', method: 'GET', path: '/v2/labels/:labelId', handle: getDefinition },
  ];

  function listLabels(context: RequestContext): Reply {
    const user = requireUser(context);
    const maxResults = context.query.integer('maxResults', { min: 1, max: 100, default: 100 }) ?? 100;
    const pageToken = context.query.string('pageToken', 512);
    const page = labels.list(user, context.params.fileId, { maxResults, ...(pageToken !== undefined ? { pageToken } : {}) });
    return { json: renderLabelList(page.labels, user, page.nextPageToken) };
  }

  async function modifyLabels(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const request = parseBody(modifyLabelsRequestSchema, await context.json());
    const { modified } = labels.modify(user, context.params.fileId, request);
    return { json: renderModifyLabelsResponse(modified, user) };
  }

  /** Drive Labels API labels.list: every published definition (the emulator has a handful, on one page unless asked). */
  function listDefinitions(context: RequestContext): Reply {
    requireUser(context);
    context.query.enumValue('view', ['LABEL_VIEW_BASIC', 'LABEL_VIEW_FULL'] as const);
    context.query.boolean('publishedOnly', false);
    const pageSize = context.query.integer('pageSize', { min: 0, max: 200, default: 50 }) || 50;
    const pageToken = context.query.string('pageToken', 512);
    const page = offsetPage(LABEL_DEFINITIONS, { scope: 'labelDefinitions', maxResults: pageSize, ...(pageToken !== undefined ? { pageToken } : {}) });
    return { json: renderDefinitionList(page.items, 'nextPageToken' in page ? page.nextPageToken : undefined) };
  }

  /** labels.get by `labels/{id}` (optionally `@revision`); the path segment is the id, as the client sends it. */
  function getDefinition(context: RequestContext): Reply {
    requireUser(context);
    const id = (context.params.labelId).replace(/@.*$/, '');
    const definition = findLabelDefinition(id);
    if (!definition) throw new ApiError(404, 'notFound', `Label not found: ${id}`);
    return { json: copyDefinition(definition) };
  }
}

