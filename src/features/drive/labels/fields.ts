/**
 * Labels as the extension shows and edits them (pure, no vscode): a label's title and fields from its definition,
 * values as people read them (choice names, not ids), the typed input checked as Drive checks it (the same rules
 * as the emulator, see shared/schemas/drive/labels.ts) and the modification that sets or clears a field.
 */
import {
  DriveLabel,
  DriveLabelField,
  fieldValueProblem,
  isMultiValued,
  LabelDefinition,
  LabelDefinitionField,
  LabelFieldModification,
  LabelValueProblem,
  LabelValueType,
  maxEntriesOf,
  valueTypeOf,
} from '../../../shared/schemas/drive/labels';

import type { Translate } from '../../../shared/l10n';
import { parseDueInput } from '../../../core/text/dates';
import { formatDateKey } from '../../../core/text/clock';

export type { Translate };

export function labelTitle(definition: LabelDefinition | undefined, labelId: string): string {
  return definition?.properties?.title ?? labelId;
}

export function fieldName(field: LabelDefinitionField): string {
  return field.properties?.displayName ?? field.id;
}

/** The values a field holds, as sent to Drive (choice ids, emails, digits, dates, text). */
export function rawValues(applied: DriveLabelField | undefined): string[] {
  if (!applied) return [];
  return applied.text ?? applied.integer ?? applied.dateString ?? applied.selection ?? applied.user?.map((user) => user.emailAddress ?? user.displayName ?? '') ?? [];
}

/** How dates are written for the user: their locale, and today for whether the year is said. */
export interface DayWords {
  readonly locale?: string;
  readonly now?: number;
}

/** The values as people read them: choices by name, dates as Desk's clock writes a day ("Tue 30 Jun"). */
export function displayValues(field: LabelDefinitionField, applied: DriveLabelField | undefined, words: DayWords = {}): string[] {
  const values = rawValues(applied);
  if (valueTypeOf(field) === 'dateString') {
    const today = words.now === undefined ? undefined : new Date(words.now).toISOString().slice(0, 10);
    return values.map((value) => {
      // Anything but a date is shown as Drive sent it.
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDateKey(value, words.locale, today) : value;
    });
  }
  if (valueTypeOf(field) !== 'selection') return values;
  return values.map((id) => field.selectionOptions?.choices.find((choice) => choice.id === id)?.properties?.displayName ?? id);
}

/** "Status: Done · Budget (EUR): 1200" — the fields that have values, in the definition's order. */
export function labelSummary(definition: LabelDefinition | undefined, label: DriveLabel, words: DayWords = {}): string {
  if (!definition) return Object.entries(label.fields ?? {}).map(([id, field]) => `${id}: ${rawValues(field).join(', ')}`).join(' · ');
  return definition.fields
    .filter((field) => rawValues(label.fields?.[field.id]).length > 0)
    .map((field) => `${fieldName(field)}: ${displayValues(field, label.fields?.[field.id], words).join(', ')}`)
    .join(' · ');
}

/** How to ask for a field's value in words the user reads (the type, and its limits). */
export function fieldPrompt(field: LabelDefinitionField, t: Translate): string {
  switch (valueTypeOf(field)) {
    case 'text': return t('Text for {0}', fieldName(field));
    case 'integer': {
      const min = field.integerOptions?.minValue;
      const max = field.integerOptions?.maxValue;
      return min !== undefined && max !== undefined ? t('A whole number for {0}, from {1} to {2}', fieldName(field), min, max) : t('A whole number for {0}', fieldName(field));
    }
    case 'dateString': return t('A date for {0}: YYYY-MM-DD, "today", "tomorrow", a weekday such as "friday", or "in 3 days"', fieldName(field));
    case 'user': return isMultiValued(field)
      ? t('Email addresses for {0}, separated by commas (at most {1})', fieldName(field), maxEntriesOf(field))
      : t('An email address for {0}', fieldName(field));
    case 'selection': return t('Choose {0}', fieldName(field));
    default: return fieldName(field);
  }
}

/**
 * Typed text → values: several comma-separated addresses for a multi-valued user field; for a date, the day the words
 * name ("fri", "tomorrow", "in 3 days", as the Tasks due-date step reads them, `today` being the user's day) as
 * Drive's YYYY-MM-DD; else the one value.
 */
export function parseInput(field: LabelDefinitionField, text: string, today: Date = new Date()): string[] {
  if (valueTypeOf(field) === 'user' && isMultiValued(field)) return text.split(/[,;\s]+/).map((value) => value.trim()).filter(Boolean);
  if (valueTypeOf(field) === 'dateString') {
    const parsed = parseDueInput(text, today);
    if (parsed.kind === 'date') return [parsed.date];
    if (parsed.kind === 'none') return [];
  }
  const value = valueTypeOf(field) === 'text' ? text : text.trim();
  return value === '' ? [] : [value];
}

/** What is wrong with typed text for the field, in the user's words; undefined when Drive will take it (empty clears the field). */
export function inputProblem(field: LabelDefinitionField, text: string, t: Translate, today: Date = new Date()): string | undefined {
  const values = parseInput(field, text, today);
  if (values.length > maxEntriesOf(field)) return t('{0} takes at most {1} values.', fieldName(field), maxEntriesOf(field));
  for (const value of values) {
    const problem = fieldValueProblem(field, value);
    if (problem) return values.length > 1 ? `${value}: ${problemText(problem, t)}` : problemText(problem, t);
  }
  return undefined;
}

export function problemText(problem: LabelValueProblem, t: Translate): string {
  switch (problem.code) {
    case 'tooShort': return t('Use at least {0} characters.', problem.limit ?? '');
    case 'tooLong': return t('Use at most {0} characters.', problem.limit ?? '');
    case 'notInteger': return t('Enter a whole number, such as 42.');
    case 'tooSmall': return t('Enter {0} or more.', problem.limit ?? '');
    case 'tooLarge': return t('Enter {0} or less.', problem.limit ?? '');
    case 'notDate': return t('Enter a date as YYYY-MM-DD (such as 2026-06-30), "today", "tomorrow", a weekday such as "friday", or "in 3 days".');
    case 'notCalendarDate': return t('That day does not exist.');
    case 'notChoice': return t('Pick one of the choices.');
    case 'notEmail': return t('Enter an email address, such as name@example.com.');
    case 'unknownType': return t('Desk cannot edit this kind of field.');
  }
}

const SETTERS: Readonly<Record<LabelValueType, keyof LabelFieldModification>> = {
  text: 'setTextValues',
  integer: 'setIntegerValues',
  dateString: 'setDateValues',
  selection: 'setSelectionValues',
  user: 'setUserValues',
};

/** The modification that gives the field these values (the setter of its type). */
export function setModification(field: LabelDefinitionField, values: readonly string[]): LabelFieldModification {
  const type = valueTypeOf(field);
  if (!type) throw new Error(`unsupported field ${field.id}`);
  return { kind: 'drive#labelFieldModification', fieldId: field.id, [SETTERS[type]]: [...values] };
}

export function unsetModification(field: LabelDefinitionField): LabelFieldModification {
  return { kind: 'drive#labelFieldModification', fieldId: field.id, unsetValues: true };
}
