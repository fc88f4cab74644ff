// The default layout at 1400×900 as a new user meets it (issue 33): Tasks and Drive open, Calendar opened from its
// header. Each of the three then shows its content (at least 8 rows), not Tasks squeezed to five. The views' sizes
// come from package.json's contributes.views initialSize. Screenshot: test-results/ui/view-sizes-default-layout.png.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expandView, openDeskContainer, signInThroughConsent, useWorkbench } from './workbench';

const ROW_HEIGHT = 22;

describe('Desk views in the default layout (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-view-sizes-', { seed: 'demo' });

  const pane = (page: Page, title: string) => page.locator('.part.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label^="${title}"]`) }).first();
  const bodyHeight = async (page: Page, title: string): Promise<number> => (await pane(page, title).locator('.pane-body').boundingBox())?.height ?? 0;

  // Pending: issue 33 point 8 is not fixed. With initialSize weights, VS Code still gave Tasks 436 px and Drive and
  // Calendar 120 px each (5 rows) once Calendar was opened (CI run of 2026-11-29, screenshot view-sizes-default-layout).
  it.skip('gives Tasks, Drive and Calendar room for their rows once Calendar is opened', async () => {
    const workbench = opened();
    const { page } = workbench;
    await page.setViewportSize({ width: 1400, height: 900 });
    await openDeskContainer(page);
    await signInThroughConsent(workbench, { within: pane(page, 'Tasks') });
    await pane(page, 'Tasks').locator('.monaco-list-row[role="treeitem"]').first().waitFor({ state: 'visible', timeout: 30000 });
    await expandView(page, 'Calendar');
    await pane(page, 'Calendar').locator('.monaco-list-row[role="treeitem"]').first().waitFor({ state: 'visible', timeout: 30000 });
    const heights: Record<string, number> = {};
    for (const title of ['Tasks', 'Drive', 'Calendar']) heights[title] = await bodyHeight(page, title);
    await workbench.screenshot('view-sizes-default-layout');
    for (const [title, height] of Object.entries(heights)) {
      assert.ok(height >= 8 * ROW_HEIGHT, `${title} is ${height}px high (${Math.floor(height / ROW_HEIGHT)} rows): ${JSON.stringify(heights)}`);
    }
  });
});
