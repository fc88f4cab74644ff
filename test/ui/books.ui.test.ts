// The Bookshelves view as a user meets it: sign in through the emulator's consent page, open the view, expand a
// shelf, hover a volume, then search books as you type in the quick pick and add a result to a shelf (checked on the
// emulator over HTTP). Screenshots of the view and of the quick pick with results go to test-results/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { getAsAlice, showOnlyViews, openDeskContainer, runCommand, signInThroughConsent, useWorkbench, RESULTS_DIR } from './workbench';

const RESULTS = RESULTS_DIR;

interface ApiVolumes { items?: Array<{ volumeInfo: { title?: string } }> }

describe('Bookshelves view (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-books-', { seed: 'demo' });

  async function shot(page: Page, name: string): Promise<string> {
    const file = path.join(RESULTS, name);
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
    return file;
  }

  /** The Bookshelves pane of the Desk container. */
  const booksPane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Bookshelves"]') });
  const row = (page: Page, label: string) => booksPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();

  it('signs in, opens Bookshelves, and shows a shelf\'s volumes with their details in the hover', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    // Give the Bookshelves view the side bar.
    await showOnlyViews(page, ['Bookshelves']);
    const header = page.locator('.part.sidebar .pane-header[aria-label^="Bookshelves"]');
    await header.waitFor({ state: 'visible', timeout: 30000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();

    await row(page, 'My Library').waitFor({ state: 'visible', timeout: 30000 });
    const toRead = row(page, 'To read');
    await toRead.waitFor({ state: 'visible', timeout: 30000 });
    assert.match(await toRead.locator('.label-description').innerText(), /3 volumes · public/);
    assert.match(await row(page, 'Purchased').locator('.label-description').innerText(), /1 volume · private/);
    assert.equal(await row(page, 'Purchased').locator('.codicon-lock').count(), 1, 'a read-only shelf has no lock icon');
    await toRead.click();
    await row(page, 'Dune').waitFor({ state: 'visible', timeout: 15000 });
    await row(page, 'Middlemarch').waitFor({ state: 'visible' });
    assert.match(await row(page, 'Dune').locator('.label-description').innerText(), /Frank Herbert · 1965/);
    await row(page, 'Dune').locator('.label-name').hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Frank Herbert' }).first().waitFor({ state: 'visible', timeout: 8000 }).catch(() => undefined);
    await shot(page, 'books-view.png');
  });

  it('searches as the user types and adds a result to a shelf', async () => {
    const workbench = opened();
    const { page } = workbench;
    await page.keyboard.press('Escape');
    await runCommand(page, 'Desk Books: Find Books…');
    const quickInput = page.locator('.quick-input-widget');
    const input = quickInput.locator('input.input');
    await quickInput.locator('.quick-input-title', { hasText: 'Search Google Books' }).waitFor({ state: 'visible', timeout: 15000 });
    await input.pressSequentially('inauthor:tolkien', { delay: 40 });
    const hobbit = quickInput.locator('.monaco-list-row', { hasText: 'The Hobbit' }).first();
    await hobbit.waitFor({ state: 'visible', timeout: 15000 });
    await quickInput.locator('.monaco-list-row', { hasText: 'The Two Towers' }).first().waitFor({ state: 'visible', timeout: 15000 });
    await page.mouse.move(5, 5);
    await shot(page, 'books-search.png');

    // Enter on a result asks what to do; "Add to Shelf…" then offers the writable shelves.
    await hobbit.click();
    await quickInput.locator('.monaco-list-row', { hasText: 'Add to Shelf' }).first().waitFor({ state: 'visible', timeout: 15000 });
    await input.fill('Add to Shelf');
    await input.press('Enter');
    await quickInput.locator('.monaco-list-row', { hasText: 'Reading now' }).first().waitFor({ state: 'visible', timeout: 15000 });
    const offered = (await quickInput.locator('.monaco-list-row .label-name').allInnerTexts()).map((text) => text.trim());
    assert.ok(!offered.includes('Purchased') && !offered.includes('Recently viewed'), `read-only shelves offered: ${offered.join(', ')}`);
    await input.fill('Reading now');
    await input.press('Enter');

    let titles: string[] = [];
    for (let attempt = 0; attempt < 50 && titles[0] !== 'The Hobbit'; attempt++) {
      titles = ((await getAsAlice<ApiVolumes>(workbench.emulatorUrl, '/books/v1/mylibrary/bookshelves/3/volumes')).items ?? []).map((item) => item.volumeInfo.title ?? '');
      if (titles[0] !== 'The Hobbit') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(titles[0], 'The Hobbit', `Reading now on the emulator: ${titles.join(', ')}`);
    await row(page, 'Reading now').waitFor({ state: 'visible' });
    await row(page, 'The Hobbit').waitFor({ state: 'visible', timeout: 15000 });
    await workbench.screenshot('books-added-from-search');
  });
});
