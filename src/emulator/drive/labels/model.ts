/**
 * Labels applied to files (files.listLabels, files.modifyLabels, `labelInfo`). Pure: no HTTP. A request's
 * modifications are all checked against the label definitions before any is applied, so a bad one changes
 * nothing (Drive applies them atomically). Readers list labels; writers and above change them. A change of labels
 * is a change of the file (new etag, an entry in the change feed).
 */
import {
  describeLabelValueProblem,
  fieldValueProblem,
  isMultiValued,
  LabelDefinition,
  LabelDefinitionField,
  LabelFieldModification,
  LabelValueType,
  maxEntriesOf,
  ModifyLabelsRequest,
  valueTypeOf,
} from '../../../shared/schemas/drive/labels';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, required } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import type { Collection, Store } from '../../store/store';
import type { DriveModel, StoredFile } from '../files/model';
import { findLabelDefinition } from './definitions';

export interface StoredLabelField {
  valueType: LabelValueType;
  /** Text, int64 digits, YYYY-MM-DD, choice ids or email addresses, as the type says. */
  values: string[];
}

export interface StoredLabel {
  labelId: string;
  revisionId: string;
  fields: Record<string, StoredLabelField>;
}

interface FileLabels {
  fileId: string;
  labels: StoredLabel[];
}

/** Which `set…Values` list carries each value type. */
const SETTERS: Readonly<Record<LabelValueType, keyof LabelFieldModification>> = {
  text: 'setTextValues',
  integer: 'setIntegerValues',
  dateString: 'setDateValues',
  selection: 'setSelectionValues',
  user: 'setUserValues',
};

export class LabelsModel {
  private readonly applied: Collection<FileLabels>;

  constructor(store: Store, private readonly files: DriveModel) {
    this.applied = store.collection<FileLabels>('drive.fileLabels');
    files.onDelete.push((file) => void this.applied.delete(file.id));
  }

  /** The labels on a file the user may see (what `labelInfo` shows). */
  labelsOf(file: StoredFile): StoredLabel[] {
    return this.applied.get(file.id)?.labels ?? [];
  }

  list(user: EmulatorUser, fileId: string, options: { maxResults: number; pageToken?: string }): { file: StoredFile; labels: StoredLabel[]; nextPageToken?: string } {
    const file = this.files.require(user, fileId, 'read');
    const page = offsetPage(this.labelsOf(file), { scope: `labels:${file.id}`, maxResults: options.maxResults, ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}) });
    return { file, labels: page.items, ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** Applies, changes and removes labels; answers the labels added or changed (removed ones are not listed). */
  modify(user: EmulatorUser, fileId: string, request: ModifyLabelsRequest): { file: StoredFile; modified: StoredLabel[] } {
    const file = this.files.require(user, fileId, 'write');
    const labels = this.labelsOf(file).map((applied) => ({ ...applied, fields: { ...applied.fields } }));
    const touched: string[] = [];
    for (const [index, modification] of (request.labelModifications ?? []).entries()) {
      const where = `labelModifications[${index}]`;
      if (modification.labelId === undefined || modification.labelId === '') throw required(`${where}.labelId`, 'body');
      const definition = findLabelDefinition(modification.labelId);
      if (!definition) throw new ApiError(404, 'notFound', `Label not found: ${modification.labelId}`, { location: `${where}.labelId`, locationType: 'body' });
      const position = labels.findIndex((applied) => applied.labelId === definition.id);
      if (modification.removeLabel === true) {
        if ((modification.fieldModifications ?? []).length > 0) throw new ApiError(400, 'invalidInput', 'A modification that removes a label cannot also change its fields.', { location: where, locationType: 'body' });
        if (position >= 0) labels.splice(position, 1);
        continue;
      }
      const target: StoredLabel = position >= 0 ? (labels[position] as StoredLabel) : { labelId: definition.id, revisionId: definition.revisionId ?? '1', fields: {} };
      if (position < 0) labels.push(target);
      for (const [fieldIndex, change] of (modification.fieldModifications ?? []).entries()) {
        applyField(definition, target, change, `${where}.fieldModifications[${fieldIndex}]`);
      }
      if (!touched.includes(definition.id)) touched.push(definition.id);
    }
    this.applied.set(file.id, { fileId: file.id, labels });
    this.files.mutateFile(file, (changed) => {
      changed.version += 1;
    });
    this.files.recordChange(file, user);
    return { file, modified: labels.filter((applied) => touched.includes(applied.labelId)) };
  }
}

/** Checks one field change against the definition and applies it to `target` (a copy: nothing is stored yet). */
function applyField(definition: LabelDefinition, target: StoredLabel, change: LabelFieldModification, where: string): void {
  if (change.fieldId === undefined || change.fieldId === '') throw required(`${where}.fieldId`, 'body');
  const field = definition.fields.find((candidate) => candidate.id === change.fieldId);
  if (!field) throw new ApiError(400, 'labelMutationUnknownField', `The label ${definition.id} has no field ${change.fieldId}.`, { location: `${where}.fieldId`, locationType: 'body' });
  const valueType = valueTypeOf(field) as LabelValueType;
  const given = (Object.entries(SETTERS) as [LabelValueType, keyof LabelFieldModification][]).filter(([, setter]) => change[setter] !== undefined);
  if (change.unsetValues === true) {
    if (given.length > 0) throw invalidInput(`A field modification either sets values or unsets them, not both (field ${field.id}).`, where);
    delete target.fields[field.id];
    return;
  }
  if (given.length === 0) throw invalidInput(`The modification of field ${field.id} sets no values: use ${SETTERS[valueType]} or unsetValues.`, where);
  if (given.length > 1 || given[0]?.[0] !== valueType) {
    throw invalidInput(`Field ${field.id} of label ${definition.id} holds ${valueType} values: set it with ${SETTERS[valueType]} only.`, where);
  }
  const raw = change[SETTERS[valueType]] as readonly (string | number)[];
  const values = raw.map((value) => String(value).trim());
  if (values.length === 0) {
    delete target.fields[field.id];
    return;
  }
  if (values.length > 1 && !isMultiValued(field)) throw new ApiError(400, 'labelMultipleValuesForSingularField', `Field ${field.id} of label ${definition.id} takes one value.`, { location: where, locationType: 'body' });
  if (values.length > maxEntriesOf(field)) throw invalidInput(`Field ${field.id} of label ${definition.id} takes at most ${maxEntriesOf(field)} values.`, where);
  for (const value of values) checkValue(definition, field, value, where);
  target.fields[field.id] = { valueType, values: valueType === 'integer' ? values.map((value) => BigInt(value).toString()) : valueType === 'user' ? values.map((value) => value.toLowerCase()) : values };
}

function checkValue(definition: LabelDefinition, field: LabelDefinitionField, value: string, where: string): void {
  const problem = fieldValueProblem(field, value);
  if (problem === undefined) return;
  if (valueTypeOf(field) === 'selection') {
    throw new ApiError(400, 'labelMutationIllegalSelection', `'${value}' is not a choice of field ${field.id} of label ${definition.id}.`, { location: where, locationType: 'body' });
  }
  throw invalidInput(`The value '${value}' of field ${field.id} of label ${definition.id} ${describeLabelValueProblem(problem)}.`, where);
}

function invalidInput(message: string, where: string): ApiError {
  return new ApiError(400, 'invalidInput', message, { location: where, locationType: 'body' });
}
