/**
 * Drive labels, shared by the client and the emulator: the labels applied to a file (Drive v2 `drive#label`,
 * files.listLabels / files.modifyLabels) and the label definitions they follow (the Drive Labels API v2's
 * `labels.list`, which says what fields a label has and of which type). Responses tolerant, inputs strict.
 */
import * as z from '../zod';
import { driveUserSchema } from './files';
import { compareDigits, withoutLeadingZeros } from '../../decimal';

/** The value types a label field can hold (Drive's `valueType` names). */
export const LABEL_VALUE_TYPES = ['text', 'integer', 'dateString', 'selection', 'user'] as const;
export type LabelValueType = (typeof LABEL_VALUE_TYPES)[number];

export const labelFieldSchema = z.object({
  kind: z.optional(z.string()),
  id: z.optional(z.string()),
  valueType: z.optional(z.string()),
  text: z.optional(z.array(z.string())),
  /** int64 values, as strings. */
  integer: z.optional(z.array(z.string())),
  /** Full dates, YYYY-MM-DD. */
  dateString: z.optional(z.array(z.string())),
  /** Choice ids. */
  selection: z.optional(z.array(z.string())),
  user: z.optional(z.array(driveUserSchema)),
});
export type DriveLabelField = z.infer<typeof labelFieldSchema>;

export const labelSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  revisionId: z.optional(z.string()),
  fields: z.optional(z.record(z.string(), labelFieldSchema)),
});
export type DriveLabel = z.infer<typeof labelSchema>;

export const labelListSchema = z.object({
  kind: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z._default(z.array(labelSchema), []),
});
export type LabelList = z.infer<typeof labelListSchema>;

export const modifyLabelsResponseSchema = z.object({
  kind: z.optional(z.string()),
  modifiedLabels: z._default(z.array(labelSchema), []),
});
export type ModifyLabelsResponse = z.infer<typeof modifyLabelsResponseSchema>;

const values = z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(100));

/** One field's change: set values of the field's type, or unset them. */
export const labelFieldModificationSchema = z.object({
  kind: z.optional(z.string()),
  fieldId: z.optional(z.string().check(z.maxLength(256))),
  setTextValues: z.optional(values),
  setIntegerValues: z.optional(z.array(z.union([z.string().check(z.maxLength(32)), z.number()])).check(z.maxLength(100))),
  setDateValues: z.optional(values),
  setSelectionValues: z.optional(values),
  setUserValues: z.optional(values),
  unsetValues: z.optional(z.boolean()),
});
export type LabelFieldModification = z.infer<typeof labelFieldModificationSchema>;

/** Applies a label (with field changes), changes its fields, or removes it. */
export const labelModificationSchema = z.object({
  kind: z.optional(z.string()),
  labelId: z.optional(z.string().check(z.maxLength(256))),
  removeLabel: z.optional(z.boolean()),
  fieldModifications: z.optional(z.array(labelFieldModificationSchema).check(z.maxLength(100))),
});
export type LabelModification = z.infer<typeof labelModificationSchema>;

/** files.modifyLabels body: every modification succeeds, or none does. */
export const modifyLabelsRequestSchema = z.object({
  kind: z.optional(z.string()),
  labelModifications: z.optional(z.array(labelModificationSchema).check(z.maxLength(100))),
});
export type ModifyLabelsRequest = z.infer<typeof modifyLabelsRequestSchema>;

// ---- label definitions (Drive Labels API v2, labels.list with view=LABEL_VIEW_FULL) ----

const listOptionsSchema = z.object({ maxEntries: z.optional(z.number()) });
const dateSchema = z.object({ year: z.optional(z.number()), month: z.optional(z.number()), day: z.optional(z.number()) });

export const labelDefinitionFieldSchema = z.object({
  id: z.string(),
  queryKey: z.optional(z.string()),
  properties: z.optional(z.object({ displayName: z.optional(z.string()), required: z.optional(z.boolean()) })),
  textOptions: z.optional(z.object({ minLength: z.optional(z.number()), maxLength: z.optional(z.number()) })),
  /** int64 bounds, as strings. */
  integerOptions: z.optional(z.object({ minValue: z.optional(z.string()), maxValue: z.optional(z.string()) })),
  dateOptions: z.optional(z.object({ dateFormatType: z.optional(z.string()), minValue: z.optional(dateSchema), maxValue: z.optional(dateSchema) })),
  selectionOptions: z.optional(z.object({
    listOptions: z.optional(listOptionsSchema),
    choices: z._default(z.array(z.object({ id: z.string(), properties: z.optional(z.object({ displayName: z.optional(z.string()) })) })), []),
  })),
  userOptions: z.optional(z.object({ listOptions: z.optional(listOptionsSchema) })),
});
export type LabelDefinitionField = z.infer<typeof labelDefinitionFieldSchema>;

export const labelDefinitionSchema = z.object({
  name: z.optional(z.string()),
  id: z.string(),
  revisionId: z.optional(z.string()),
  labelType: z.optional(z.string()),
  properties: z.optional(z.object({ title: z.optional(z.string()), description: z.optional(z.string()) })),
  lifecycle: z.optional(z.object({ state: z.optional(z.string()) })),
  fields: z._default(z.array(labelDefinitionFieldSchema), []),
});
export type LabelDefinition = z.infer<typeof labelDefinitionSchema>;

export const labelDefinitionListSchema = z.object({
  labels: z._default(z.array(labelDefinitionSchema), []),
  nextPageToken: z.optional(z.string()),
});
export type LabelDefinitionList = z.infer<typeof labelDefinitionListSchema>;

/** The value type a definition's field holds (undefined for a type Desk does not know). */
export function valueTypeOf(field: LabelDefinitionField): LabelValueType | undefined {
  if (field.textOptions) return 'text';
  if (field.integerOptions) return 'integer';
  if (field.dateOptions) return 'dateString';
  if (field.selectionOptions) return 'selection';
  if (field.userOptions) return 'user';
  return undefined;
}

/** Whether the field takes several values (selection and user fields with list options). */
export function isMultiValued(field: LabelDefinitionField): boolean {
  return field.selectionOptions?.listOptions !== undefined || field.userOptions?.listOptions !== undefined;
}

/** The largest number of values a field takes. */
export function maxEntriesOf(field: LabelDefinitionField): number {
  const options = field.selectionOptions?.listOptions ?? field.userOptions?.listOptions;
  return options ? options.maxEntries ?? 100 : 1;
}

/** Why a value does not fit a field: a code (the extension words it in the user's language) and the limit broken. */
export interface LabelValueProblem {
  readonly code: 'tooShort' | 'tooLong' | 'notInteger' | 'tooSmall' | 'tooLarge' | 'notDate' | 'notCalendarDate' | 'notChoice' | 'notEmail' | 'unknownType';
  readonly limit?: string;
}

/** Why a value is not acceptable for a field (undefined when it is): the emulator's checks and the extension's input validation agree. */
export function fieldValueProblem(field: LabelDefinitionField, value: string): LabelValueProblem | undefined {
  switch (valueTypeOf(field)) {
    case 'text': {
      const min = field.textOptions?.minLength ?? 0;
      const max = field.textOptions?.maxLength ?? 4096;
      if (value.length < min) return { code: 'tooShort', limit: String(min) };
      if (value.length > max) return { code: 'tooLong', limit: String(max) };
      return undefined;
    }
    case 'integer': {
      // Any run of digits is a whole number: one past the field's bounds (or int64's) is too large, not "not a number".
      if (!DECIMAL.test(value.trim())) return { code: 'notInteger' };
      const min = field.integerOptions?.minValue ?? '-9223372036854775808';
      const max = field.integerOptions?.maxValue ?? '9223372036854775807';
      if (compareIntegers(value.trim(), min) < 0) return { code: 'tooSmall', limit: min };
      if (compareIntegers(value.trim(), max) > 0) return { code: 'tooLarge', limit: max };
      return undefined;
    }
    case 'dateString': {
      const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
      if (!found) return { code: 'notDate' };
      const [year, month, day] = [Number(found[1]), Number(found[2]), Number(found[3])];
      const date = new Date(Date.UTC(year, month - 1, day));
      if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return { code: 'notCalendarDate' };
      return undefined;
    }
    case 'selection':
      return field.selectionOptions?.choices.some((choice) => choice.id === value) ? undefined : { code: 'notChoice' };
    case 'user':
      return looksLikeEmail(value.trim()) ? undefined : { code: 'notEmail' };
    default:
      return { code: 'unknownType' };
  }
}

/** The problem in English (the emulator's error messages). */
export function describeLabelValueProblem(problem: LabelValueProblem): string {
  switch (problem.code) {
    case 'tooShort': return `must be at least ${problem.limit ?? ''} characters`;
    case 'tooLong': return `must be at most ${problem.limit ?? ''} characters`;
    case 'notInteger': return 'must be a whole number';
    case 'tooSmall': return `must be at least ${problem.limit ?? ''}`;
    case 'tooLarge': return `must be at most ${problem.limit ?? ''}`;
    case 'notDate': return 'must be a date as YYYY-MM-DD';
    case 'notCalendarDate': return 'is not a calendar date';
    case 'notChoice': return 'is not one of the choices';
    case 'notEmail': return 'must be an email address';
    case 'unknownType': return 'has a type that is not supported';
  }
}

/**
 * Whether `text` reads as name@domain.tld: what /^[^@\s]+@[^@\s]+\.[^@\s]+$/ accepts (a dot in the domain with
 * something on each side), checked in linear time; the one-regex form tried every dot of the domain against the rest
 * (100 KB of dots took 5.6 s).
 */
export function looksLikeEmail(text: string): boolean {
  const domain = /^[^@\s]+@([^@\s]+)$/.exec(text)?.[1];
  return domain !== undefined && domain.slice(1, -1).includes('.');
}

const DECIMAL = /^-?\d+$/;

/**
 * How the whole number `value` (decimal digits) compares with `bound`, as BigInt compares them, in linear time
 * (shared/decimal.ts). A bound in another form BigInt accepts goes through BigInt.
 */
function compareIntegers(value: string, bound: string): number {
  if (!DECIMAL.test(bound)) {
    const [x, y] = [BigInt(value), BigInt(bound)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const [a, b] = [signedDigits(value), signedDigits(bound)];
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const magnitude = compareDigits(a.digits, b.digits);
  return a.negative ? -magnitude : magnitude;
}

/** A decimal integer's sign and digits without leading zeros (zero is not negative). */
function signedDigits(text: string): { negative: boolean; digits: string } {
  const negative = text.startsWith('-');
  const digits = withoutLeadingZeros(negative ? text.slice(1) : text);
  return { negative: negative && digits !== '0', digits };
}
