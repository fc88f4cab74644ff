/**
 * The emulator's label definitions (what a Workspace admin would publish with the Drive Labels API): one label
 * per field type Drive has, so every kind of field can be applied, changed and removed. Shaped as the Drive Labels
 * API v2 returns them (labels.list with view=LABEL_VIEW_FULL); files.modifyLabels checks values against them.
 */
import type { LabelDefinition, LabelDefinitionField } from '../../../shared/schemas/drive/labels';

function label(id: string, title: string, description: string, fields: LabelDefinitionField[]): LabelDefinition {
  return {
    name: `labels/${id}`,
    id,
    revisionId: '1',
    labelType: 'SHARED',
    properties: { title, description },
    lifecycle: { state: 'PUBLISHED' },
    fields: fields.map((field) => ({ ...field, queryKey: `labels/${id}.${field.id}` })),
  };
}

const choice = (id: string, displayName: string): { id: string; properties: { displayName: string } } => ({ id, properties: { displayName } });

export const LABEL_DEFINITIONS: readonly LabelDefinition[] = [
  label('deskProject', 'Project', 'Where a piece of work stands.', [
    { id: 'status', properties: { displayName: 'Status' }, selectionOptions: { choices: [choice('notStarted', 'Not started'), choice('inProgress', 'In progress'), choice('blocked', 'Blocked'), choice('done', 'Done')] } },
    { id: 'owner', properties: { displayName: 'Owner' }, userOptions: {} },
    { id: 'budget', properties: { displayName: 'Budget (EUR)' }, integerOptions: { minValue: '0', maxValue: '1000000' } },
    { id: 'dueDate', properties: { displayName: 'Due date' }, dateOptions: { dateFormatType: 'SHORT_DATE' } },
  ]),
  label('deskReview', 'Review', 'Who reviews a document, and what about.', [
    { id: 'reviewers', properties: { displayName: 'Reviewers' }, userOptions: { listOptions: { maxEntries: 5 } } },
    { id: 'topics', properties: { displayName: 'Topics' }, selectionOptions: { listOptions: { maxEntries: 3 }, choices: [choice('design', 'Design'), choice('security', 'Security'), choice('docs', 'Documentation')] } },
    { id: 'round', properties: { displayName: 'Round' }, integerOptions: { minValue: '1', maxValue: '10' } },
    { id: 'notes', properties: { displayName: 'Notes' }, textOptions: { minLength: 1, maxLength: 200 } },
  ]),
  label('deskConfidential', 'Confidential', 'A badge without fields: handle with care.', []),
];

export function findLabelDefinition(labelId: string): LabelDefinition | undefined {
  return LABEL_DEFINITIONS.find((definition) => definition.id === labelId);
}
