// The default layout at 1400×900 as a new user meets it (issue 33): Tasks, Drive and Calendar open (Bookshelves, TODOs
// and Channels collapsed), each showing its content (at least 8 rows), not Tasks squeezed to five. The sizes come
// from package.json's contributes.views initialSize, which VS Code (1.100) reads as weights: at the container's first
// layout every visible view, collapsed ones included, is given height × weight / total, so the weights are the heights
// wanted at 900 px (a collapsed view's is its 22 px header). A view collapsed by default opens at its minimum (120 px
// body) whatever its weight, which is why Calendar is open by default. Screenshot:
// test-results/ui/view-sizes-default-layout.png.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openDeskContainer, signInThroughConsent, useWorkbench } from './workbench';

const ROW_HEIGHT = 22;

describe('Desk views in the default layout (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-view-sizes-', { seed: 'demo' });

  const pane = (page: Page, title: string) => page.locator('.part.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label^="${title}"]`) }).first();
  const bodyHeight = async (page: Page, title: string): Promise<number> => (await pane(page, title).locator('.pane-body').boundingBox())?.height ?? 0;

  it('gives Tasks, Drive and Calendar room for their rows', async () => {
    const workbench = opened();
    const { page } = workbench;
    await page.setViewportSize({ width: 1400, height: 900 });
    await openDeskContainer(page);
    const expanded: Record<string, string | null> = {};
    for (const title of ['Tasks', 'Drive', 'Bookshelves', 'Calendar', 'TODOs']) expanded[title] = await pane(page, title).locator('.pane-header').getAttribute('aria-expanded');
    assert.deepEqual(expanded, { Tasks: 'true', Drive: 'true', Bookshelves: 'false', Calendar: 'true', TODOs: 'false' }, 'the views open by default');
    await signInThroughConsent(workbench, { within: pane(page, 'Tasks') });
    await pane(page, 'Tasks').locator('.monaco-list-row[role="treeitem"]').first().waitFor({ state: 'visible', timeout: 30000 });
    for (const title of ['Drive', 'Calendar']) await pane(page, title).locator('.monaco-list-row[role="treeitem"]').first().waitFor({ state: 'visible', timeout: 30000 });
    const heights: Record<string, number> = {};
    for (const title of ['Tasks', 'Drive', 'Calendar']) heights[title] = await bodyHeight(page, title);
    await workbench.screenshot('view-sizes-default-layout');
    console.log(`    (view bodies: ${Object.entries(heights).map(([title, height]) => `${title} ${Math.round(height)} px`).join(', ')})`);
    for (const [title, height] of Object.entries(heights)) {
      assert.ok(height >= 8 * ROW_HEIGHT, `${title} is ${height}px high (${Math.floor(height / ROW_HEIGHT)} rows): ${JSON.stringify(heights)}`);
    }
  });
});
