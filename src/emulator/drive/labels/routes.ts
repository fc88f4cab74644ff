/**
 * Drive's label routes: files.listLabels and files.modifyLabels, `labelInfo` on files asked for with includeLabels,
 * and the label definitions (the Drive Labels API v2's labels.list / labels.get, which the emulator serves on its
 * one root) that say which fields each label has.
 */
import type { DriveFile } from '../../../shared/schemas/drive';
import { DriveLabel, DriveLabelField, LabelDefinition, LabelDefinitionList, LabelList, ModifyLabelsResponse, modifyLabelsRequestSchema } from '../../../shared/schemas/drive/labels';
import { DEMO_USERS, EmulatorUser } from '../../auth/users';
import { requireUser } from '../../core/context';
import { ApiError } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext } from '../../core/router';
import type { StoredFile } from '../files/model';
import { driveUser } from '../render';
import type { DriveRoute, DriveRouteKit } from '../routing';
import { findLabelDefinition, LABEL_DEFINITIONS } from './definitions';
import type { LabelsModel, StoredLabel } from './model';

export function labelRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { labels } = kit.service;
  return [
    ['GET', '/drive/v2/files/:fileId/listLabels', listLabels],
    ['POST', '/drive/v2/files/:fileId/modifyLabels', modifyLabels],
    ['GET', '/v2/labels', listDefinitions],
    ['GET', '/v2/labels/:labelId', getDefinition],
  ];

  function listLabels(context: RequestContext): Reply {
    const user = requireUser(context);
    const maxResults = context.query.integer('maxResults', { min: 1, max: 100, default: 100 }) ?? 100;
    const pageToken = context.query.string('pageToken', 512);
    const page = labels.list(user, context.params.fileId as string, { maxResults, ...(pageToken !== undefined ? { pageToken } : {}) });
    const list: LabelList = { kind: 'drive#labelList', items: page.labels.map((applied) => renderLabel(applied, user)) };
    if (page.nextPageToken !== undefined) list.nextPageToken = page.nextPageToken;
    return { json: list };
  }

  async function modifyLabels(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const request = parseBody(modifyLabelsRequestSchema, await context.json());
    const { modified } = labels.modify(user, context.params.fileId as string, request);
    const response: ModifyLabelsResponse = { kind: 'drive#modifyLabelsResponse', modifiedLabels: modified.map((applied) => renderLabel(applied, user)) };
    return { json: response };
  }

  /** Drive Labels API labels.list: every published definition (the emulator has a handful, on one page unless asked). */
  function listDefinitions(context: RequestContext): Reply {
    requireUser(context);
    context.query.enumValue('view', ['LABEL_VIEW_BASIC', 'LABEL_VIEW_FULL'] as const);
    context.query.boolean('publishedOnly', false);
    const pageSize = context.query.integer('pageSize', { min: 0, max: 200, default: 50 }) || 50;
    const pageToken = context.query.string('pageToken', 512);
    const page = offsetPage(LABEL_DEFINITIONS, { scope: 'labelDefinitions', maxResults: pageSize, ...(pageToken !== undefined ? { pageToken } : {}) });
    const list: LabelDefinitionList = { labels: page.items.map(copyDefinition) };
    if (page.nextPageToken !== undefined) list.nextPageToken = page.nextPageToken;
    return { json: list };
  }

  /** labels.get by `labels/{id}` (optionally `@revision`); the path segment is the id, as the client sends it. */
  function getDefinition(context: RequestContext): Reply {
    requireUser(context);
    const id = (context.params.labelId as string).replace(/@.*$/, '');
    const definition = findLabelDefinition(id);
    if (!definition) throw new ApiError(404, 'notFound', `Label not found: ${id}`);
    return { json: copyDefinition(definition) };
  }
}

/** Adds `labelInfo` to a rendered file when the request names labels with includeLabels (none by default). */
export function labelInfoDecorator(labels: LabelsModel): (file: StoredFile, resource: DriveFile, user: EmulatorUser, context: RequestContext) => void {
  return (file, resource, user, context) => {
    const wanted = (context.query.string('includeLabels', 4096) ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    if (wanted.length === 0) return;
    resource.labelInfo = { labels: labels.labelsOf(file).filter((applied) => wanted.includes(applied.labelId)).map((applied) => renderLabel(applied, user)) };
  };
}

export function renderLabel(applied: StoredLabel, viewer: EmulatorUser): DriveLabel {
  const fields: Record<string, DriveLabelField> = {};
  for (const [fieldId, stored] of Object.entries(applied.fields)) {
    const field: DriveLabelField = { kind: 'drive#labelField', id: fieldId, valueType: stored.valueType };
    switch (stored.valueType) {
      case 'text': field.text = [...stored.values]; break;
      case 'integer': field.integer = [...stored.values]; break;
      case 'dateString': field.dateString = [...stored.values]; break;
      case 'selection': field.selection = [...stored.values]; break;
      case 'user': field.user = stored.values.map((email) => {
        const known = DEMO_USERS.find((candidate) => candidate.email === email);
        return known ? driveUser(known, viewer) : { kind: 'drive#user', displayName: email, emailAddress: email, isAuthenticatedUser: false };
      }); break;
    }
    fields[fieldId] = field;
  }
  return { kind: 'drive#label', id: applied.labelId, revisionId: applied.revisionId, fields };
}

function copyDefinition(definition: LabelDefinition): LabelDefinition {
  return JSON.parse(JSON.stringify(definition)) as LabelDefinition;
}
