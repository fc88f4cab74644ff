/**
 * A Drive file's custom properties (key = value, public or private to Desk): a small editor that lists them and
 * adds, changes and removes them, and each of those as its own command for the palette. Drive's limits (124 bytes
 * for key and value together, 30 public, 30 private, 100 in all) are checked before anything is sent.
 */
import type * as vscode from 'vscode';
import { CancelledError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import type { DraftBox } from '../../../core/ui/drafts';
import type { DriveProperty, PropertyVisibility } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { countProblem, keyProblem, sortProperties, valueProblem, visibilityLabel, visibilityOf } from '../properties/limits';
import { explainPropertiesError } from '../sharing/errors';
import type { DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';

type Action = 'add' | 'change' | 'visibility' | 'remove';
type EditorItem = vscode.QuickPickItem & { action?: Action; property?: DriveProperty };

export class DrivePropertyCommands extends DriveCommandPart {
  private api() {
    return this.host.resources();
  }

  private labelOf(property: DriveProperty): string {
    return `${property.key} = ${property.value ?? ''}`;
  }

  private async list(fileId: string): Promise<DriveProperty[]> {
    return sortProperties((await this.api().listProperties(fileId)).items);
  }

  private async showChange(fileId: string): Promise<void> {
    await this.context.changeEach([fileId], (id) => this.host.api().getFile(id), { rerender: 'row' });
  }

  private explained(error: unknown, file: DriveItem): unknown {
    const sentence = explainPropertiesError(error, file, this.t);
    return sentence === undefined ? error : new Error(sentence);
  }

  private async pickProperty(file: DriveItem, properties: readonly DriveProperty[], placeHolder: string): Promise<DriveProperty | undefined> {
    if (properties.length === 0) {
      void this.vs.window.showInformationMessage(this.t('“{0}” has no custom properties Desk can see.', this.titleOf(file)));
      return undefined;
    }
    const picked = await this.vs.window.showQuickPick(properties.map((property) => ({ label: this.labelOf(property), description: visibilityLabel(visibilityOf(property), this.t), property })), { title: this.t('Properties of “{0}”', this.titleOf(file)), placeHolder, matchOnDescription: true });
    return picked?.property;
  }

  private async add(file: DriveItem, properties: readonly DriveProperty[]): Promise<boolean> {
    const title = this.t('Add a property to “{0}”', this.titleOf(file));
    // The key and value typed last time and not added (Escape on a later step, a refusal) come back.
    const draft = this.context.drafts.open(`add-property/${file.id}`, { key: '', value: '' });
    const ask = (box: DraftBox<string>) => this.vs.window.showInputBox({ title, ignoreFocusOut: true, ...box });
    const key = await draft.ask('key', this.t('Key'), this.t, ask, (text) => keyProblem(text, this.t));
    if (key === undefined) return false;
    const keyIssue = keyProblem(key, this.t);
    if (keyIssue) throw new Error(keyIssue);
    const value = await draft.ask('value', this.t('Value of {0}', key), this.t, ask, (text) => valueProblem(key, text, this.t));
    if (value === undefined) return false;
    const valueIssue = valueProblem(key, value, this.t);
    if (valueIssue) throw new Error(valueIssue);
    const picked = await this.vs.window.showQuickPick((['PRIVATE', 'PUBLIC'] as const).map((visibility) => ({ label: visibilityLabel(visibility, this.t), visibility })), { title, placeHolder: this.t('Who sees {0}?', key) });
    if (!picked) return false;
    // The same key and visibility again replaces that property's value (an update); anything else is a new one.
    if (properties.some((property) => property.key === key && visibilityOf(property) === picked.visibility)) {
      await this.api().updateProperty(file.id, key, { value, visibility: picked.visibility }, picked.visibility);
      draft.drop();
      return true;
    }
    const countIssue = countProblem(properties, key, picked.visibility, this.t);
    if (countIssue) throw new Error(countIssue);
    await this.api().insertProperty(file.id, { key, value, visibility: picked.visibility });
    draft.drop();
    return true;
  }

  private async changeValue(file: DriveItem, properties: readonly DriveProperty[], chosen?: DriveProperty): Promise<boolean> {
    const listed = chosen ?? await this.pickProperty(file, properties, this.t('Which property should change?'));
    if (!listed) return false;
    // Read afresh: another app or person may have changed it since the list was read, and the box starts from its value.
    const property = await this.api().getProperty(file.id, listed.key, visibilityOf(listed));
    const value = await this.vs.window.showInputBox({ title: this.t('Properties of “{0}”', this.titleOf(file)), prompt: this.t('New value of {0}', property.key), value: property.value ?? '', ignoreFocusOut: true, validateInput: (text) => valueProblem(property.key, text, this.t) });
    if (value === undefined || value === property.value) return false;
    const issue = valueProblem(property.key, value, this.t);
    if (issue) throw new Error(issue);
    await this.api().patchProperty(file.id, property.key, { value }, visibilityOf(property));
    return true;
  }

  /** Public ↔ private: written anew under the other visibility, then removed from the old one (every server does both). */
  private async toggleVisibility(file: DriveItem, properties: readonly DriveProperty[], property: DriveProperty): Promise<boolean> {
    const from = visibilityOf(property);
    const to: PropertyVisibility = from === 'PUBLIC' ? 'PRIVATE' : 'PUBLIC';
    const issue = countProblem(properties, property.key, to, this.t);
    if (issue) throw new Error(issue);
    await this.api().insertProperty(file.id, { key: property.key, value: property.value ?? '', visibility: to });
    await this.api().deleteProperty(file.id, property.key, from);
    return true;
  }

  private async remove(file: DriveItem, properties: readonly DriveProperty[], chosen?: DriveProperty): Promise<boolean> {
    const property = chosen ?? await this.pickProperty(file, properties, this.t('Which property should be removed?'));
    if (!property) return false;
    await this.api().deleteProperty(file.id, property.key, visibilityOf(property));
    return true;
  }

  private run(action: Action, file: DriveItem, properties: readonly DriveProperty[], property?: DriveProperty): Promise<boolean> {
    switch (action) {
      case 'add': return this.add(file, properties);
      case 'change': return this.changeValue(file, properties, property);
      case 'visibility': return property ? this.toggleVisibility(file, properties, property) : Promise.resolve(false);
      case 'remove': return this.remove(file, properties, property);
    }
  }

  private async propertyActions(file: DriveItem, properties: readonly DriveProperty[], property: DriveProperty): Promise<boolean> {
    const other = visibilityOf(property) === 'PUBLIC' ? this.t('$(lock) Make private') : this.t('$(eye) Make public');
    const items: EditorItem[] = [
      { label: this.t('$(edit) Change value…'), action: 'change' },
      { label: other, action: 'visibility' },
      { label: this.t('$(trash) Remove'), action: 'remove' },
    ];
    const picked = await this.vs.window.showQuickPick(items, { title: this.labelOf(property), placeHolder: visibilityLabel(visibilityOf(property), this.t) });
    return picked?.action ? this.run(picked.action, file, properties, property) : false;
  }

  /** The editor: every property (key = value, visibility), then Add; loops until Escape. */
  private async editor(node?: DriveNode): Promise<void> {
    const target = await this.context.targetFile(node);
    if (!target) return;
    for (;;) {
      const [file, properties] = await Promise.all([this.host.api().getFile(target.id), this.list(target.id)]);
      const items: EditorItem[] = [
        ...properties.map((property) => ({ label: this.labelOf(property), description: visibilityLabel(visibilityOf(property), this.t), property })),
        ...(properties.length > 0 ? [{ label: '', kind: this.vs.QuickPickItemKind.Separator }] : []),
        { label: this.t('$(add) Add property…'), action: 'add' },
      ];
      const picked = await this.vs.window.showQuickPick(items, {
        title: this.t('Properties of “{0}”', this.titleOf(file)),
        placeHolder: properties.length > 0 ? this.t('Choose a property to change or remove it, or add one') : this.t('No custom properties yet'),
        matchOnDescription: true,
      });
      if (!picked) return;
      try {
        const changed = picked.action ? await this.run(picked.action, file, properties) : picked.property ? await this.propertyActions(file, properties, picked.property) : false;
        if (changed) await this.showChange(file.id);
      } catch (error) {
        if (error instanceof CancelledError) return;
        void this.desk.showError(this.explained(error, file), { action: this.t('Could not change the properties of “{0}”', this.titleOf(file)) });
      }
    }
  }

  private single(action: Exclude<Action, 'visibility'>) {
    return (node?: DriveNode) =>
    attempt(this.desk, async () => {
      const target = await this.context.targetFile(node);
      if (!target) return;
      try {
        if (await this.run(action, target, await this.list(target.id))) await this.showChange(target.id);
      } catch (error) {
        throw this.explained(error, target);
      }
    }, { action: this.t('Could not change the properties') });
  }

  editProperties(node?: DriveNode) {
    return attempt(this.desk, () => this.editor(node), { action: this.t('Could not list the properties') });
  }

  readonly addProperty = this.single('add');

  readonly changeProperty = this.single('change');

  readonly removeProperty = this.single('remove');
}
