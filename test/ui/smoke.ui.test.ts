// The first thing a user sees: VS Code opens with Desk in the activity bar, and its container opens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { OpenedWorkbench, openDeskContainer, openWorkbench } from './workbench';

describe('Desk in the workbench (UI)', function () {
  this.timeout(120000);
  let workbench: OpenedWorkbench | undefined;

  before(async () => {
    workbench = await openWorkbench({ seed: 'demo' });
  });

  afterEach(async function () {
    // A failed UI test leaves a picture of what the user would have seen.
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  after(async () => {
    await workbench?.close();
  });

  it('shows the Desk container from the activity bar', async () => {
    assert.ok(workbench);
    await openDeskContainer(workbench.page);
    const title = await workbench.page.locator('.part.sidebar .composite.title').innerText();
    assert.match(title, /desk/i);
    const file = await workbench.screenshot('smoke-desk-container');
    assert.ok(fs.statSync(file).size > 0);
  });
});
