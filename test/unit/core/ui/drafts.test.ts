// The drafts of multi-step dialogs: what was typed and not saved comes back for the same dialog and item, and goes when saved or typed back to the original.
import * as assert from 'node:assert/strict';
import { Drafts } from '../../../../src/core/ui/drafts';
import { english } from '../../../../src/shared/l10n';

describe('Drafts', () => {
  it('offers what was typed to the next run of the same dialog only, saying so in the prompt', () => {
    const drafts = new Drafts();
    drafts.open('edit-task/l1/t1', { title: 'Renew passport' }).keep('title', 'Renew passport and ID');
    const again = drafts.open('edit-task/l1/t1', { title: 'Renew passport' });
    assert.equal(again.value('title'), 'Renew passport and ID');
    assert.equal(again.prompt('title', 'Title of the task', english), 'Title of the task (your unsaved text from last time)');
    const other = drafts.open('edit-task/l1/t2', { title: 'Water the plants' });
    assert.equal(other.value('title'), 'Water the plants');
    assert.equal(other.prompt('title', 'Title of the task', english), 'Title of the task');
  });

  it('forgets a field typed back to the original, and the whole draft when saved or cleared', () => {
    const drafts = new Drafts();
    const draft = drafts.open('new-event/cal', { title: '', when: '' });
    draft.keep('title', 'Lunch');
    draft.keep('when', 'fri 12:30');
    draft.keep('title', '');
    assert.equal(drafts.open('new-event/cal', { title: '', when: '' }).isUnsaved('title'), false);
    assert.equal(drafts.open('new-event/cal', { title: '', when: '' }).value('when'), 'fri 12:30');
    draft.drop();
    assert.equal(drafts.has('new-event/cal'), false);
    draft.keep('when', 'next blue moon');
    assert.equal(drafts.has('new-event/cal'), false, 'a box validated after the save brings nothing back');
    drafts.open('new-event/cal', { title: '' }).keep('title', 'Lunch');
    drafts.clear('new-event/cal');
    assert.equal(drafts.open('new-event/cal', { title: '' }).value('title'), '');
  });
});
