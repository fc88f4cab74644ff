// The first thing a user sees: VS Code opens with Desk in the activity bar, and its container opens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { openDeskContainer, useWorkbench } from './workbench';

describe('Desk in the workbench (UI)', function () {
  this.timeout(120000);
  const opened = useWorkbench('failed-', { seed: 'demo' });

  it('shows the Desk container from the activity bar', async () => {
    const workbench = opened();
    await openDeskContainer(workbench.page);
    const title = await workbench.page.locator('.part.sidebar .composite.title').innerText();
    assert.match(title, /desk/i);
    const file = await workbench.screenshot('smoke-desk-container');
    assert.ok(fs.statSync(file).size > 0);
  });
});
