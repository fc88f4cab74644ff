/**
 * Drive labels: the labels applied to a file (files.listLabels, files.modifyLabels, on the Drive client) and the
 * label definitions that say which fields a label has (the Drive Labels API's labels.list, a separate service
 * with its own root and scope, hence its own small client). Idempotency: reads by method; modifyLabels sets,
 * unsets and removes to given values (never "add one more"), so a repeat after a lost answer lands in the same state.
 */
import {
  LabelDefinition,
  labelDefinitionListSchema,
  LabelList,
  labelListSchema,
  ModifyLabelsRequest,
  ModifyLabelsResponse,
  modifyLabelsResponseSchema,
} from '../../shared/schemas/drive/labels';
import { HttpClient, path } from '../http';
import type { DriveContext } from './context';

export interface ListLabelsOptions {
  /** Default 100, at most 100. */
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export function listLabels(drive: DriveContext, fileId: string, options: ListLabelsOptions = {}): Promise<LabelList> {
  return drive.http.json(labelListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/listLabels`, query: { maxResults: options.maxResults, pageToken: options.pageToken }, signal: options.signal, operation: 'drive.files.listLabels' });
}

/** Applies, changes or removes labels; every modification succeeds or none does. Answers the labels added or changed. */
export function modifyLabels(drive: DriveContext, fileId: string, request: ModifyLabelsRequest, signal?: AbortSignal): Promise<ModifyLabelsResponse> {
  return drive.http.json(modifyLabelsResponseSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/modifyLabels`, json: { kind: 'drive#modifyLabelsRequest', ...request }, signal, idempotent: true, operation: 'drive.files.modifyLabels' });
}

/** The Drive Labels API (v2), read only: the published label definitions the user may apply. */
export class DriveLabelDefinitionsClient {
  constructor(private readonly http: HttpClient) {}

  /** Every published label with its fields (view LABEL_VIEW_FULL), across pages. */
  async listDefinitions(signal?: AbortSignal): Promise<LabelDefinition[]> {
    const definitions: LabelDefinition[] = [];
    const pages = this.http.items((pageToken) => this.http.json(labelDefinitionListSchema, {
      method: 'GET',
      path: '/v2/labels',
      query: { view: 'LABEL_VIEW_FULL', publishedOnly: true, pageSize: 200, pageToken },
      signal,
      operation: 'drivelabels.labels.list',
    }), (page) => page.labels);
    for await (const definition of pages) definitions.push(definition);
    return definitions;
  }
}
