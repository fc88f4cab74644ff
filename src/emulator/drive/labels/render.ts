/** Drive labels as the API returns them: applied labels on a file (and its labelInfo), and label definitions. */
import type { LabelsModel, StoredLabel } from './model';
import type { StoredFile } from '../files/model';
import { driveUser, nextPage } from '../render';
import { DEMO_USERS, EmulatorUser } from '../../identity/users';
import type { RequestContext } from '../../core/router';
import type { DriveFile } from '../../../shared/schemas/drive';
import { DriveLabel, DriveLabelField, LabelDefinition, LabelDefinitionList, LabelList, ModifyLabelsResponse } from '../../../shared/schemas/drive/labels';

/** Adds `labelInfo` to a rendered file when the request names labels with includeLabels (none by default). */
export function labelInfoDecorator(labels: LabelsModel): (file: StoredFile, resource: DriveFile, user: EmulatorUser, context: RequestContext) => void {
  return (file, resource, user, context) => {
    const wanted = (context.query.string('includeLabels', 4096) ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    if (wanted.length === 0) return;
    resource.labelInfo = { labels: labels.labelsOf(file).filter((applied) => wanted.includes(applied.labelId)).map((applied) => renderLabel(applied, user)) };
  };
}

/** files.listLabels: one page of the labels applied to a file. */
export function renderLabelList(labels: readonly StoredLabel[], viewer: EmulatorUser, nextPageToken: string | undefined): LabelList {
  return { kind: 'drive#labelList', items: labels.map((applied) => renderLabel(applied, viewer)), ...nextPage(nextPageToken) };
}

/** files.modifyLabels: the labels the request changed, as they are now. */
export function renderModifyLabelsResponse(modified: readonly StoredLabel[], viewer: EmulatorUser): ModifyLabelsResponse {
  return { kind: 'drive#modifyLabelsResponse', modifiedLabels: modified.map((applied) => renderLabel(applied, viewer)) };
}

/** The Labels API's labels.list: one page of definitions (the Labels API has no kind field). */
export function renderDefinitionList(definitions: readonly LabelDefinition[], nextPageToken: string | undefined): LabelDefinitionList {
  return { labels: definitions.map(copyDefinition), ...nextPage(nextPageToken) };
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

export function copyDefinition(definition: LabelDefinition): LabelDefinition {
  return JSON.parse(JSON.stringify(definition)) as LabelDefinition;
}
