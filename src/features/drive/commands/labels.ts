/**
 * Drive labels on a file: a small editor (the labels applied, each with its fields) and each operation as its own
 * command for the palette and the file's context menu — apply a label, change its fields (an input per field
 * type, checked as Drive checks it: text, whole numbers within bounds, dates, choices, people), remove it.
 */
import type * as vscode from 'vscode';
import { isMultiValued, LabelDefinition, LabelDefinitionField, maxEntriesOf, valueTypeOf } from '../../../shared/schemas/drive/labels';
import type { DriveLabel, LabelFieldModification } from '../../../shared/schemas/drive/labels';
import { confirmModal } from '../../../core/ui/confirm';
import { LabelCatalog } from '../labels/catalog';
import { displayValues, fieldName, fieldPrompt, inputProblem, labelSummary, labelTitle, parseInput, rawValues, setModification, unsetModification } from '../labels/fields';
import type { DriveItem } from '../port';
import type { DriveNode } from '../tree/model';
import { DriveCommandContext, DriveCommandPart } from './context';
import { appendAll } from '../../../shared/arrays';

type EditorItem = vscode.QuickPickItem & { run?: () => Promise<void> };

export class DriveLabelCommands extends DriveCommandPart {
  private readonly catalog: LabelCatalog;

  constructor(context: DriveCommandContext) {
    super(context);
    this.catalog = new LabelCatalog(this.host.desk);
  }

  private api() {
    return this.host.resources();
  }

  private async applied(file: DriveItem): Promise<DriveLabel[]> {
    const labels: DriveLabel[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.api().listLabels(file.id, { ...(pageToken ? { pageToken } : {}) });
      appendAll(labels, page.items);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return labels;
  }

  private async modify(file: DriveItem, labelId: string, change: { fieldModifications?: LabelFieldModification[]; removeLabel?: boolean }): Promise<DriveLabel | undefined> {
    const answer = await this.api().modifyLabels(file.id, { labelModifications: [{ kind: 'drive#labelModification', labelId, ...change }] });
    // The file changed (new etag): record it as Desk's own write so the change feed does not announce it.
    await this.context.changeEach([file.id], (id) => this.host.api().getFile(id), { rerender: 'row' });
    return answer.modifiedLabels.find((label) => label.id === labelId);
  }

  private async pickApplied(file: DriveItem, labels: readonly DriveLabel[], definitions: readonly LabelDefinition[], placeHolder: string): Promise<DriveLabel | undefined> {
    if (labels.length === 0) {
      void this.vs.window.showInformationMessage(this.t('“{0}” has no labels.', this.titleOf(file)));
      return undefined;
    }
    const picked = await this.vs.window.showQuickPick(labels.map((label) => {
      const definition = definitions.find((candidate) => candidate.id === label.id);
      return { label: `$(tag) ${labelTitle(definition, label.id)}`, description: labelSummary(definition, label, { locale: this.vs.env.language }), labelValue: label };
    }), { title: this.t('Labels of “{0}”', this.titleOf(file)), placeHolder });
    return picked?.labelValue;
  }

  /** One field's new value, asked for by type; undefined when dismissed, else the modification. */
  private async askField(file: DriveItem, field: LabelDefinitionField, label: DriveLabel | undefined): Promise<LabelFieldModification | undefined> {
    const current = label?.fields?.[field.id];
    const title = this.t('{0} on “{1}”', fieldName(field), this.titleOf(file));
    if (valueTypeOf(field) === 'selection') {
      const chosen = new Set(rawValues(current));
      const choices = (field.selectionOptions?.choices ?? []).map((choice) => ({ label: choice.properties?.displayName ?? choice.id, picked: chosen.has(choice.id), id: choice.id }));
      if (isMultiValued(field)) {
        const picked = await this.vs.window.showQuickPick(choices, { title, placeHolder: this.t('{0} (none picked clears the field)', fieldPrompt(field, this.t)), canPickMany: true });
        if (!picked) return undefined;
        const ids = picked.map((choice) => choice.id);
        if (ids.length > maxEntriesOf(field)) throw new Error(this.t('{0} takes at most {1} values.', fieldName(field), maxEntriesOf(field)));
        return ids.length === 0 ? unsetModification(field) : setModification(field, ids);
      }
      const clear = { label: `$(close) ${this.t('Clear')}`, picked: false, id: undefined };
      const picked = await this.vs.window.showQuickPick([...choices, ...(chosen.size > 0 ? [clear] : [])], { title, placeHolder: fieldPrompt(field, this.t) });
      if (!picked) return undefined;
      return picked.id === undefined ? unsetModification(field) : setModification(field, [picked.id]);
    }
    const text = await this.vs.window.showInputBox({
      title,
      prompt: `${fieldPrompt(field, this.t)} — ${this.t('leave empty to clear it')}`,
      value: rawValues(current).join(', '),
      ignoreFocusOut: true,
      validateInput: (value) => inputProblem(field, value, this.t),
    });
    if (text === undefined) return undefined;
    const problem = inputProblem(field, text, this.t);
    if (problem) throw new Error(problem);
    const values = parseInput(field, text);
    return values.length === 0 ? unsetModification(field) : setModification(field, values);
  }

  /** Field after field until Done: each change is sent at once (Drive checks it), and the list shows the new values. */
  private async editFields(file: DriveItem, definition: LabelDefinition, start: DriveLabel | undefined): Promise<void> {
    let label = start;
    if (definition.fields.length === 0) {
      void this.vs.window.showInformationMessage(this.t('The label “{0}” has no fields.', labelTitle(definition, definition.id)));
      return;
    }
    for (;;) {
      const done = { label: `$(check) ${this.t('Done')}`, field: undefined as LabelDefinitionField | undefined };
      const items = definition.fields.map((field) => {
        const values = displayValues(field, label?.fields?.[field.id], { locale: this.vs.env.language });
        return { label: fieldName(field), description: values.length > 0 ? values.join(', ') : this.t('(empty)'), detail: fieldPrompt(field, this.t), field: field };
      });
      const picked = await this.vs.window.showQuickPick([...items, done], { title: this.t('“{0}” on “{1}”', labelTitle(definition, definition.id), this.titleOf(file)), placeHolder: this.t('Pick a field to change') });
      if (!picked?.field) return;
      const change = await this.askField(file, picked.field, label);
      if (!change) continue;
      label = await this.modify(file, definition.id, { fieldModifications: [change] }) ?? label;
    }
  }

  private async apply(file: DriveItem): Promise<void> {
    const [definitions, labels] = await Promise.all([this.catalog.definitions(), this.applied(file)]);
    const available = definitions.filter((definition) => !labels.some((label) => label.id === definition.id));
    if (available.length === 0) {
      void this.vs.window.showInformationMessage(this.t('Every label is already on “{0}”.', this.titleOf(file)));
      return;
    }
    const picked = await this.vs.window.showQuickPick(available.map((definition) => ({
      label: `$(tag) ${labelTitle(definition, definition.id)}`,
      description: definition.fields.map((field) => fieldName(field)).join(', '),
      detail: definition.properties?.description,
      definition,
    })), { title: this.t('Apply a label to “{0}”', this.titleOf(file)), placeHolder: this.t('Which label?') });
    if (!picked) return;
    const label = await this.modify(file, picked.definition.id, {});
    if (picked.definition.fields.length > 0) await this.editFields(file, picked.definition, label);
  }

  private async change(file: DriveItem, chosen?: DriveLabel): Promise<void> {
    const [definitions, labels] = await Promise.all([this.catalog.definitions(), this.applied(file)]);
    const label = chosen ?? await this.pickApplied(file, labels, definitions, this.t('Which label’s fields should change?'));
    if (!label) return;
    const definition = definitions.find((candidate) => candidate.id === label.id);
    if (!definition) throw new Error(this.t('The label {0} is not one you may edit.', label.id));
    await this.editFields(file, definition, label);
  }

  private async remove(file: DriveItem, chosen?: DriveLabel): Promise<void> {
    const [definitions, labels] = await Promise.all([this.catalog.known(), this.applied(file)]);
    const label = chosen ?? await this.pickApplied(file, labels, definitions, this.t('Which label should be removed?'));
    if (!label) return;
    const title = labelTitle(definitions.find((candidate) => candidate.id === label.id), label.id);
    const go = await confirmModal(this.vs, this.t('Remove the label “{0}” from “{1}”?', title, this.titleOf(file)), this.t('Its field values go with it.'), this.t('Remove Label'));
    if (!go) return;
    await this.modify(file, label.id, { removeLabel: true });
    void this.vs.window.showInformationMessage(this.t('Removed the label “{0}” from “{1}”.', title, this.titleOf(file)));
  }

  /** The editor: the labels on the file, each to change or remove, and "Apply a label"; until dismissed. */
  private async editor(file: DriveItem): Promise<void> {
    for (;;) {
      const [definitions, labels] = await Promise.all([this.catalog.known(), this.applied(file)]);
      const items: EditorItem[] = labels.flatMap((label) => {
        const definition = definitions.find((candidate) => candidate.id === label.id);
        const title = labelTitle(definition, label.id);
        return [
          { label: `$(tag) ${title}`, description: labelSummary(definition, label, { locale: this.vs.env.language }) || this.t('(no values)'), detail: this.t('Change its fields…'), run: () => this.change(file, label) },
          { label: `$(close) ${this.t('Remove “{0}”…', title)}`, run: () => this.remove(file, label) },
        ];
      });
      items.push({ label: `$(add) ${this.t('Apply a Label…')}`, run: () => this.apply(file) });
      const picked = await this.vs.window.showQuickPick(items, { title: this.t('Labels of “{0}”', this.titleOf(file)), placeHolder: labels.length === 0 ? this.t('No labels yet') : this.t('Pick what to do') });
      if (!picked?.run) return;
      await picked.run();
    }
  }

  private withFile(work: (file: DriveItem) => Promise<void>) {
    return async (node?: DriveNode): Promise<void> => {
      const file = await this.context.targetFile(node);
      if (file) await work(file);
    };
  }

  readonly labels = this.withFile((file: DriveItem) => this.editor(file));

  readonly applyLabel = this.withFile((file: DriveItem) => this.apply(file));

  readonly changeLabelFields = this.withFile((file) => this.change(file));

  readonly removeLabel = this.withFile((file) => this.remove(file));
}
