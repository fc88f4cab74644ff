import * as assert from 'node:assert/strict';
import { displayValues, inputProblem, labelSummary, parseInput, setModification, unsetModification } from '../../../../../src/features/drive/labels/fields';
import type { LabelDefinition } from '../../../../../src/shared/schemas/drive/labels';
import { english as t } from '../../../../../src/shared/l10n';

const definition: LabelDefinition = {
  id: 'project',
  properties: { title: 'Project' },
  fields: [
    { id: 'status', properties: { displayName: 'Status' }, selectionOptions: { choices: [{ id: 'wip', properties: { displayName: 'In progress' } }, { id: 'done', properties: { displayName: 'Done' } }] } },
    { id: 'budget', properties: { displayName: 'Budget' }, integerOptions: { minValue: '0', maxValue: '100' } },
    { id: 'due', properties: { displayName: 'Due' }, dateOptions: {} },
    { id: 'people', properties: { displayName: 'People' }, userOptions: { listOptions: { maxEntries: 2 } } },
    { id: 'note', properties: { displayName: 'Note' }, textOptions: { maxLength: 5 } },
  ],
};
const [status, budget, due, people, note] = definition.fields as [LabelDefinition['fields'][number], LabelDefinition['fields'][number], LabelDefinition['fields'][number], LabelDefinition['fields'][number], LabelDefinition['fields'][number]];

describe('label fields (pure)', () => {
  it('checks typed input as Drive does, and an empty input clears the field', () => {
    assert.equal(inputProblem(budget, '42', t), undefined);
    assert.equal(inputProblem(budget, '', t), undefined);
    assert.equal(inputProblem(budget, 'lots', t), 'Enter a whole number, such as 42.');
    assert.equal(inputProblem(budget, '101', t), 'Enter 100 or less.');
    assert.equal(inputProblem(budget, '-1', t), 'Enter 0 or more.');
    assert.equal(inputProblem(due, '2026-02-29', t), 'That day does not exist.');
    assert.match(inputProblem(due, '29.02.2028', t) ?? '', /^Enter a date as YYYY-MM-DD \(such as 2026-06-30\), "today", "tomorrow"/);
    // 20 digits are a whole number too large, not "not a whole number".
    assert.equal(inputProblem(budget, '99999999999999999999', t), 'Enter 100 or less.');
    assert.equal(inputProblem(due, '2028-02-29', t), undefined);
    assert.equal(inputProblem(note, 'toolong', t), 'Use at most 5 characters.');
    assert.equal(inputProblem(people, 'a@x.io, b@x.io', t), undefined);
    assert.equal(inputProblem(people, 'a@x.io, b@x.io, c@x.io', t), 'People takes at most 2 values.');
    assert.equal(inputProblem(people, 'a@x.io, nobody', t), 'nobody: Enter an email address, such as name@example.com.');
    assert.deepEqual(parseInput(people, ' a@x.io;b@x.io '), ['a@x.io', 'b@x.io']);
    assert.deepEqual(parseInput(note, ' hi '), [' hi ']);
  });

  it('reads a date field as the Tasks due-date step does: "tomorrow", "fri", "in 3 days" become the YYYY-MM-DD Drive keeps', () => {
    const thursday = new Date(2026, 10, 26); // Thu 26 Nov 2026
    assert.deepEqual(parseInput(due, 'tomorrow', thursday), ['2026-11-27']);
    assert.deepEqual(parseInput(due, 'fri', thursday), ['2026-11-27']);
    assert.deepEqual(parseInput(due, 'in 3 days', thursday), ['2026-11-29']);
    assert.deepEqual(parseInput(due, '2026-12-01', thursday), ['2026-12-01']);
    assert.deepEqual(parseInput(due, '  ', thursday), []);
    assert.equal(inputProblem(due, 'fri', t, thursday), undefined);
    assert.match(inputProblem(due, 'tomorrow 32:99', t, thursday) ?? '', /Enter a date as YYYY-MM-DD/);
    assert.match(inputProblem(due, '31 Feb', t, thursday) ?? '', /Enter a date as YYYY-MM-DD/);
  });

  it('builds the modification of each type and shows values by name', () => {
    assert.deepEqual(setModification(budget, ['7']), { kind: 'drive#labelFieldModification', fieldId: 'budget', setIntegerValues: ['7'] });
    assert.deepEqual(setModification(status, ['done']), { kind: 'drive#labelFieldModification', fieldId: 'status', setSelectionValues: ['done'] });
    assert.deepEqual(setModification(people, ['a@x.io']), { kind: 'drive#labelFieldModification', fieldId: 'people', setUserValues: ['a@x.io'] });
    assert.deepEqual(unsetModification(due), { kind: 'drive#labelFieldModification', fieldId: 'due', unsetValues: true });
    assert.deepEqual(displayValues(status, { selection: ['wip'] }), ['In progress']);
    const summary = labelSummary(definition, { id: 'project', fields: { status: { selection: ['done'] }, people: { user: [{ emailAddress: 'a@x.io' }] } } });
    assert.equal(summary, 'Status: Done · People: a@x.io');
    // A date reads as Desk's clock writes a day, not as the YYYY-MM-DD Drive keeps.
    const now = Date.UTC(2026, 10, 27);
    assert.deepEqual(displayValues(due, { dateString: ['2026-06-30'] }, { locale: 'en-GB', now }).map((text) => text.replace(',', '')), ['Tue 30 Jun']);
    assert.deepEqual(displayValues(due, { dateString: ['2027-01-05'] }, { locale: 'en-GB', now }).map((text) => text.replace(',', '')), ['Tue 5 Jan 2027']);
  });
});
