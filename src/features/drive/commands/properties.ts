/**
 * A Drive file's custom properties (key = value, public or private to Desk): a small editor that lists them and
 * adds, changes and removes them, and each of those as its own command for the palette. Drive's limits (124 bytes
 * for key and value together, 30 public, 30 private, 100 in all) are checked before anything is sent.
 */
import type * as vscode from 'vscode';
import { CancelledError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import type { DriveProperty, PropertyVisibility } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { countProblem, keyProblem, sortProperties, valueProblem, visibilityLabel, visibilityOf } from '../properties/limits';
import { explainPropertiesError } from '../sharing/errors';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';
import { targetFile } from './target';

type Action = 'add' | 'change' | 'visibility' | 'remove';
type EditorItem = vscode.QuickPickItem & { action?: Action; property?: DriveProperty };

export function propertyCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;
  const api = () => host.resources();
  const titleOf = (file: DriveItem): string => file.title ?? file.id;
  const labelOf = (property: DriveProperty): string => `${property.key} = ${property.value ?? ''}`;

  async function list(fileId: string): Promise<DriveProperty[]> {
    return sortProperties((await api().listProperties(fileId)).items);
  }

  async function showChange(fileId: string): Promise<void> {
    await kit.changeEach([fileId], (id) => host.api().getFile(id), { rerender: 'row' });
  }

  function explained(error: unknown, file: DriveItem): unknown {
    const sentence = explainPropertiesError(error, file, t);
    return sentence === undefined ? error : new Error(sentence);
  }

  async function pickProperty(file: DriveItem, properties: readonly DriveProperty[], placeHolder: string): Promise<DriveProperty | undefined> {
    if (properties.length === 0) {
      void vs.window.showInformationMessage(t('“{0}” has no custom properties Desk can see.', titleOf(file)));
      return undefined;
    }
    const picked = await vs.window.showQuickPick(properties.map((property) => ({ label: labelOf(property), description: visibilityLabel(visibilityOf(property), t), property })), { title: t('Properties of “{0}”', titleOf(file)), placeHolder, matchOnDescription: true });
    return picked?.property;
  }

  async function add(file: DriveItem, properties: readonly DriveProperty[]): Promise<boolean> {
    const title = t('Add a property to “{0}”', titleOf(file));
    const key = await vs.window.showInputBox({ title, prompt: t('Key'), ignoreFocusOut: true, validateInput: (value) => keyProblem(value, t) });
    if (key === undefined) return false;
    const keyIssue = keyProblem(key, t);
    if (keyIssue) throw new Error(keyIssue);
    const value = await vs.window.showInputBox({ title, prompt: t('Value of {0}', key), ignoreFocusOut: true, validateInput: (text) => valueProblem(key, text, t) });
    if (value === undefined) return false;
    const valueIssue = valueProblem(key, value, t);
    if (valueIssue) throw new Error(valueIssue);
    const picked = await vs.window.showQuickPick((['PRIVATE', 'PUBLIC'] as const).map((visibility) => ({ label: visibilityLabel(visibility, t), visibility })), { title, placeHolder: t('Who sees {0}?', key) });
    if (!picked) return false;
    // The same key and visibility again replaces that property's value (an update); anything else is a new one.
    if (properties.some((property) => property.key === key && visibilityOf(property) === picked.visibility)) {
      await api().updateProperty(file.id, key, { value, visibility: picked.visibility }, picked.visibility);
      return true;
    }
    const countIssue = countProblem(properties, key, picked.visibility, t);
    if (countIssue) throw new Error(countIssue);
    await api().insertProperty(file.id, { key, value, visibility: picked.visibility });
    return true;
  }

  async function changeValue(file: DriveItem, properties: readonly DriveProperty[], chosen?: DriveProperty): Promise<boolean> {
    const listed = chosen ?? await pickProperty(file, properties, t('Which property should change?'));
    if (!listed) return false;
    // Read afresh: another app or person may have changed it since the list was read, and the box starts from its value.
    const property = await api().getProperty(file.id, listed.key, visibilityOf(listed));
    const value = await vs.window.showInputBox({ title: t('Properties of “{0}”', titleOf(file)), prompt: t('New value of {0}', property.key), value: property.value ?? '', ignoreFocusOut: true, validateInput: (text) => valueProblem(property.key, text, t) });
    if (value === undefined || value === property.value) return false;
    const issue = valueProblem(property.key, value, t);
    if (issue) throw new Error(issue);
    await api().patchProperty(file.id, property.key, { value }, visibilityOf(property));
    return true;
  }

  /** Public ↔ private: written anew under the other visibility, then removed from the old one (every server does both). */
  async function toggleVisibility(file: DriveItem, properties: readonly DriveProperty[], property: DriveProperty): Promise<boolean> {
    const from = visibilityOf(property);
    const to: PropertyVisibility = from === 'PUBLIC' ? 'PRIVATE' : 'PUBLIC';
    const issue = countProblem(properties, property.key, to, t);
    if (issue) throw new Error(issue);
    await api().insertProperty(file.id, { key: property.key, value: property.value ?? '', visibility: to });
    await api().deleteProperty(file.id, property.key, from);
    return true;
  }

  async function remove(file: DriveItem, properties: readonly DriveProperty[], chosen?: DriveProperty): Promise<boolean> {
    const property = chosen ?? await pickProperty(file, properties, t('Which property should be removed?'));
    if (!property) return false;
    await api().deleteProperty(file.id, property.key, visibilityOf(property));
    return true;
  }

  function run(action: Action, file: DriveItem, properties: readonly DriveProperty[], property?: DriveProperty): Promise<boolean> {
    switch (action) {
      case 'add': return add(file, properties);
      case 'change': return changeValue(file, properties, property);
      case 'visibility': return property ? toggleVisibility(file, properties, property) : Promise.resolve(false);
      case 'remove': return remove(file, properties, property);
    }
  }

  async function propertyActions(file: DriveItem, properties: readonly DriveProperty[], property: DriveProperty): Promise<boolean> {
    const other = visibilityOf(property) === 'PUBLIC' ? t('$(lock) Make private') : t('$(eye) Make public');
    const items: EditorItem[] = [
      { label: t('$(edit) Change value…'), action: 'change' },
      { label: other, action: 'visibility' },
      { label: t('$(trash) Remove'), action: 'remove' },
    ];
    const picked = await vs.window.showQuickPick(items, { title: labelOf(property), placeHolder: visibilityLabel(visibilityOf(property), t) });
    return picked?.action ? run(picked.action, file, properties, property) : false;
  }

  /** The editor: every property (key = value, visibility), then Add; loops until Escape. */
  async function editor(node?: DriveNode): Promise<void> {
    const target = await targetFile(kit, node);
    if (!target) return;
    for (;;) {
      const [file, properties] = await Promise.all([host.api().getFile(target.id), list(target.id)]);
      const items: EditorItem[] = [
        ...properties.map((property) => ({ label: labelOf(property), description: visibilityLabel(visibilityOf(property), t), property })),
        ...(properties.length > 0 ? [{ label: '', kind: vs.QuickPickItemKind.Separator }] : []),
        { label: t('$(add) Add property…'), action: 'add' },
      ];
      const picked = await vs.window.showQuickPick(items, {
        title: t('Properties of “{0}”', titleOf(file)),
        placeHolder: properties.length > 0 ? t('Choose a property to change or remove it, or add one') : t('No custom properties yet'),
        matchOnDescription: true,
      });
      if (!picked) return;
      try {
        const changed = picked.action ? await run(picked.action, file, properties) : picked.property ? await propertyActions(file, properties, picked.property) : false;
        if (changed) await showChange(file.id);
      } catch (error) {
        if (error instanceof CancelledError) return;
        void desk.showError(explained(error, file), { action: t('Could not change the properties of “{0}”', titleOf(file)) });
      }
    }
  }

  const single = (action: Exclude<Action, 'visibility'>) => (node?: DriveNode) =>
    attempt(desk, async () => {
      const target = await targetFile(kit, node);
      if (!target) return;
      try {
        if (await run(action, target, await list(target.id))) await showChange(target.id);
      } catch (error) {
        throw explained(error, target);
      }
    }, { action: t('Could not change the properties') });

  return {
    editProperties: (node?: DriveNode) => attempt(desk, () => editor(node), { action: t('Could not list the properties') }),
    addProperty: single('add'),
    changeProperty: single('change'),
    removeProperty: single('remove'),
  };
}
