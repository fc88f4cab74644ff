/**
 * Drive labels on a file: a small editor (the labels applied, each with its fields) and each operation as its own
 * command for the palette and the file's context menu — apply a label, change its fields (an input per field
 * type, checked as Drive checks it: text, whole numbers within bounds, dates, choices, people), remove it.
 */
import type * as vscode from 'vscode';
import { isMultiValued, LabelDefinition, LabelDefinitionField, maxEntriesOf, valueTypeOf } from '../../../shared/schemas/drive/labels';
import type { DriveLabel, LabelFieldModification } from '../../../shared/schemas/drive/labels';
import { confirmModal } from '../../../core/confirm';
import { LabelCatalog } from '../labels/catalog';
import { displayValues, fieldName, fieldPrompt, inputProblem, labelSummary, labelTitle, parseInput, rawValues, setModification, unsetModification } from '../labels/fields';
import type { DriveItem } from '../port';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';
import { targetFile } from './target';

type EditorItem = vscode.QuickPickItem & { run?: () => Promise<void> };

export function labelCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const catalog = new LabelCatalog(host.desk);
  const api = () => host.resources();
  const titleOf = (file: DriveItem): string => file.title ?? file.id;

  async function applied(file: DriveItem): Promise<DriveLabel[]> {
    const labels: DriveLabel[] = [];
    let pageToken: string | undefined;
    do {
      const page = await api().listLabels(file.id, { ...(pageToken ? { pageToken } : {}) });
      labels.push(...page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return labels;
  }

  async function modify(file: DriveItem, labelId: string, change: { fieldModifications?: LabelFieldModification[]; removeLabel?: boolean }): Promise<DriveLabel | undefined> {
    const answer = await api().modifyLabels(file.id, { labelModifications: [{ kind: 'drive#labelModification', labelId, ...change }] });
    // The file changed (new etag): record it as Desk's own write so the change feed does not announce it.
    await kit.changeEach([file.id], (id) => host.api().getFile(id), { rerender: 'row' });
    return answer.modifiedLabels.find((label) => label.id === labelId);
  }

  async function pickApplied(file: DriveItem, labels: readonly DriveLabel[], definitions: readonly LabelDefinition[], placeHolder: string): Promise<DriveLabel | undefined> {
    if (labels.length === 0) {
      void vs.window.showInformationMessage(t('“{0}” has no labels.', titleOf(file)));
      return undefined;
    }
    const picked = await vs.window.showQuickPick(labels.map((label) => {
      const definition = definitions.find((candidate) => candidate.id === label.id);
      return { label: `$(tag) ${labelTitle(definition, label.id)}`, description: labelSummary(definition, label), labelValue: label };
    }), { title: t('Labels of “{0}”', titleOf(file)), placeHolder });
    return picked?.labelValue;
  }

  /** One field's new value, asked for by type; undefined when dismissed, else the modification. */
  async function askField(file: DriveItem, field: LabelDefinitionField, label: DriveLabel | undefined): Promise<LabelFieldModification | undefined> {
    const current = label?.fields?.[field.id];
    const title = t('{0} on “{1}”', fieldName(field), titleOf(file));
    if (valueTypeOf(field) === 'selection') {
      const chosen = new Set(rawValues(current));
      const choices = (field.selectionOptions?.choices ?? []).map((choice) => ({ label: choice.properties?.displayName ?? choice.id, picked: chosen.has(choice.id), id: choice.id as string | undefined }));
      if (isMultiValued(field)) {
        const picked = await vs.window.showQuickPick(choices, { title, placeHolder: t('{0} (none picked clears the field)', fieldPrompt(field, t)), canPickMany: true });
        if (!picked) return undefined;
        const ids = picked.map((choice) => choice.id as string);
        if (ids.length > maxEntriesOf(field)) throw new Error(t('{0} takes at most {1} values.', fieldName(field), maxEntriesOf(field)));
        return ids.length === 0 ? unsetModification(field) : setModification(field, ids);
      }
      const clear = { label: `$(close) ${t('Clear')}`, picked: false, id: undefined };
      const picked = await vs.window.showQuickPick([...choices, ...(chosen.size > 0 ? [clear] : [])], { title, placeHolder: fieldPrompt(field, t) });
      if (!picked) return undefined;
      return picked.id === undefined ? unsetModification(field) : setModification(field, [picked.id]);
    }
    const text = await vs.window.showInputBox({
      title,
      prompt: `${fieldPrompt(field, t)} — ${t('leave empty to clear it')}`,
      value: rawValues(current).join(', '),
      ignoreFocusOut: true,
      validateInput: (value) => inputProblem(field, value, t),
    });
    if (text === undefined) return undefined;
    const problem = inputProblem(field, text, t);
    if (problem) throw new Error(problem);
    const values = parseInput(field, text);
    return values.length === 0 ? unsetModification(field) : setModification(field, values);
  }

  /** Field after field until Done: each change is sent at once (Drive checks it), and the list shows the new values. */
  async function editFields(file: DriveItem, definition: LabelDefinition, start: DriveLabel | undefined): Promise<void> {
    let label = start;
    if (definition.fields.length === 0) {
      void vs.window.showInformationMessage(t('The label “{0}” has no fields.', labelTitle(definition, definition.id)));
      return;
    }
    for (;;) {
      const done = { label: `$(check) ${t('Done')}`, field: undefined as LabelDefinitionField | undefined };
      const items = definition.fields.map((field) => {
        const values = displayValues(field, label?.fields?.[field.id]);
        return { label: fieldName(field), description: values.length > 0 ? values.join(', ') : t('(empty)'), detail: fieldPrompt(field, t), field: field as LabelDefinitionField | undefined };
      });
      const picked = await vs.window.showQuickPick([...items, done], { title: t('“{0}” on “{1}”', labelTitle(definition, definition.id), titleOf(file)), placeHolder: t('Pick a field to change') });
      if (!picked?.field) return;
      const change = await askField(file, picked.field, label);
      if (!change) continue;
      label = await modify(file, definition.id, { fieldModifications: [change] }) ?? label;
    }
  }

  async function apply(file: DriveItem): Promise<void> {
    const [definitions, labels] = await Promise.all([catalog.definitions(), applied(file)]);
    const available = definitions.filter((definition) => !labels.some((label) => label.id === definition.id));
    if (available.length === 0) {
      void vs.window.showInformationMessage(t('Every label is already on “{0}”.', titleOf(file)));
      return;
    }
    const picked = await vs.window.showQuickPick(available.map((definition) => ({
      label: `$(tag) ${labelTitle(definition, definition.id)}`,
      description: definition.fields.map((field) => fieldName(field)).join(', '),
      detail: definition.properties?.description,
      definition,
    })), { title: t('Apply a label to “{0}”', titleOf(file)), placeHolder: t('Which label?') });
    if (!picked) return;
    const label = await modify(file, picked.definition.id, {});
    if (picked.definition.fields.length > 0) await editFields(file, picked.definition, label);
  }

  async function change(file: DriveItem, chosen?: DriveLabel): Promise<void> {
    const [definitions, labels] = await Promise.all([catalog.definitions(), applied(file)]);
    const label = chosen ?? await pickApplied(file, labels, definitions, t('Which label’s fields should change?'));
    if (!label) return;
    const definition = definitions.find((candidate) => candidate.id === label.id);
    if (!definition) throw new Error(t('The label {0} is not one you may edit.', label.id));
    await editFields(file, definition, label);
  }

  async function remove(file: DriveItem, chosen?: DriveLabel): Promise<void> {
    const [definitions, labels] = await Promise.all([catalog.known(), applied(file)]);
    const label = chosen ?? await pickApplied(file, labels, definitions, t('Which label should be removed?'));
    if (!label) return;
    const title = labelTitle(definitions.find((candidate) => candidate.id === label.id), label.id);
    const go = await confirmModal(vs, t('Remove the label “{0}” from “{1}”?', title, titleOf(file)), t('Its field values go with it.'), t('Remove Label'));
    if (!go) return;
    await modify(file, label.id, { removeLabel: true });
    void vs.window.showInformationMessage(t('Removed the label “{0}” from “{1}”.', title, titleOf(file)));
  }

  /** The editor: the labels on the file, each to change or remove, and "Apply a label"; until dismissed. */
  async function editor(file: DriveItem): Promise<void> {
    for (;;) {
      const [definitions, labels] = await Promise.all([catalog.known(), applied(file)]);
      const items: EditorItem[] = labels.flatMap((label) => {
        const definition = definitions.find((candidate) => candidate.id === label.id);
        const title = labelTitle(definition, label.id);
        return [
          { label: `$(tag) ${title}`, description: labelSummary(definition, label) || t('(no values)'), detail: t('Change its fields…'), run: () => change(file, label) },
          { label: `$(close) ${t('Remove “{0}”…', title)}`, run: () => remove(file, label) },
        ];
      });
      items.push({ label: `$(add) ${t('Apply a Label…')}`, run: () => apply(file) });
      const picked = await vs.window.showQuickPick(items, { title: t('Labels of “{0}”', titleOf(file)), placeHolder: labels.length === 0 ? t('No labels yet') : t('Pick what to do') });
      if (!picked?.run) return;
      await picked.run();
    }
  }

  const withFile = (work: (file: DriveItem) => Promise<void>) => async (node?: DriveNode): Promise<void> => {
    const file = await targetFile(kit, node);
    if (file) await work(file);
  };

  return {
    labels: withFile(editor),
    applyLabel: withFile(apply),
    changeLabelFields: withFile((file) => change(file)),
    removeLabel: withFile((file) => remove(file)),
  };
}
