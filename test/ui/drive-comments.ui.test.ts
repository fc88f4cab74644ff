// Drive comments as a user meets them: the seeded design.md (bob asked a question, alice answered; alice's own note
// is resolved) looks like a file until Desk knows it has comments (hovering it is enough), then shows "2 comments" and
// "Comments (2)" under it in the tree, and opens with its discussion as threads in the editor.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openDeskContainer, showOnlyViews, signInThroughConsent, treeRows, useWorkbench } from './workbench';

describe('Drive comments (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-comments-', { seed: 'demo' });

  const row = (page: Page, label: string | RegExp) => treeRows(page).filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  it('lists a file\'s comments under it in the Drive tree', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    // Give the Drive view the side bar (Tasks above it and Calendar below are open by default).
    await showOnlyViews(page, ['Drive']);

    await row(page, 'Projects').click();
    await row(page, 'Desk').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'Desk').click();
    const design = row(page, 'design.md');
    await design.waitFor({ state: 'visible', timeout: 15000 });
    // Drive tells no comment count in a listing: until the row is hovered it has no expand arrow, like any file.
    assert.doesNotMatch(await design.locator('.monaco-tl-twistie').getAttribute('class') ?? '', /\bcollapsible\b/);
    await design.hover();
    await design.locator('.monaco-tl-twistie.collapsible').waitFor({ state: 'visible', timeout: 15000 });
    assert.match(await design.innerText(), /2 comments/);
    await page.keyboard.press('Escape');
    // A file's row opens it on click; its twistie shows the comments.
    await design.locator('.monaco-tl-twistie').click();
    await row(page, 'Comments (2)').waitFor({ state: 'visible', timeout: 15000 });
    await row(page, /^Bob Demo: Should the four services/).waitFor({ state: 'visible', timeout: 15000 });
    await row(page, /^Alice Demo: Add a diagram/).waitFor({ state: 'visible' });
    assert.match(await row(page, /^Alice Demo: Add a diagram/).innerText(), /Resolved/);
    await workbench.screenshot('drive-comments-tree');
  });

  it('opens the file with its comments as threads at their lines', async () => {
    const workbench = opened();
    const { page } = workbench;
    await row(page, 'design.md').click();
    await page.locator('.editor-group-container .tab', { hasText: 'design.md' }).first().waitFor({ state: 'visible', timeout: 20000 });
    // Bob's open question is expanded in the editor, with alice's reply; her resolved note stays folded.
    const question = page.locator('.editor-group-container', { hasText: 'Should the four services share one tree view?' }).first();
    await question.waitFor({ state: 'visible', timeout: 30000 });
    await page.locator('.editor-group-container', { hasText: 'each keeps its own' }).first().waitFor({ state: 'visible', timeout: 15000 });
    const file = await workbench.screenshot('drive-comments-editor');
    assert.ok(file.endsWith('.png'));
  });
});
