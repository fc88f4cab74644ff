// The pseudo-localized run: VS Code in the qps-ploc display language (l10n/bundle.l10n.qps-ploc.json and
// package.nls.qps-ploc.json, written by `npm run l10n`). Every word Desk writes must then show as ⟦Ƥšéúðó⟧; a plain
// English word left in Desk's views, welcome pages or status bar items is a string that escaped vscode.l10n.t (or a
// pure module that was not handed the translator). What remains once the pseudo-localized parts are taken out must
// be the user's own data (titles of lists, tasks, files, events, books, read from the emulator), numbers and dates.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expandView, extensionsActivated, getAsAlice, repoRoot, signInThroughConsent, useWorkbench } from './workbench';

const exporter = require(path.join(repoRoot, 'scripts', 'l10n', 'export.js')) as { pseudo(text: string): string };

/** A message as the pseudo bundle holds it, without the brackets (what a button or a link shows). */
const pseudoWords = (text: string): string => exporter.pseudo(text).slice(1, -1);

/** What Intl writes for a locale it has no data for (qps-ploc falls back to English names of days and months). */
const INTL_WORDS = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(day|sday|nesday|rsday|urday)?\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b|\b(AM|PM)\b/g;

interface Titled { title?: string; summary?: string; summaryOverride?: string; location?: string; id?: string }

/** The user's data that Desk's views show as it is (never translated), read from the emulator as alice. */
async function userData(emulatorUrl: string): Promise<string[]> {
  const get = async <T>(pathname: string): Promise<T> => getAsAlice<T>(emulatorUrl, pathname);
  const texts: string[] = ['alice@example.com', 'Alice', 'Desk'];
  const lists = (await get<{ items?: Titled[] }>('/tasks/v1/users/@me/lists')).items ?? [];
  for (const list of lists) {
    texts.push(list.title ?? '');
    const tasks = (await get<{ items?: Titled[] }>(`/tasks/v1/lists/${encodeURIComponent(list.id ?? '')}/tasks?showCompleted=true&showHidden=true&maxResults=100`)).items ?? [];
    texts.push(...tasks.map((task) => task.title ?? ''));
  }
  texts.push(...((await get<{ items?: Titled[] }>('/drive/v2/files?maxResults=1000')).items ?? []).map((file) => file.title ?? ''));
  const calendars = (await get<{ items?: Titled[] }>('/calendar/v3/users/me/calendarList')).items ?? [];
  for (const calendar of calendars) {
    texts.push(calendar.summary ?? '', calendar.summaryOverride ?? '');
    const events = (await get<{ items?: Titled[] }>(`/calendar/v3/calendars/${encodeURIComponent(calendar.id ?? '')}/events?singleEvents=true&maxResults=2500`)).items ?? [];
    texts.push(...events.flatMap((event) => [event.summary ?? '', event.location ?? '']));
  }
  const shelves = (await get<{ items?: Array<Omit<Titled, 'id'> & { id?: number }> }>('/books/v1/mylibrary/bookshelves')).items ?? [];
  for (const shelf of shelves) {
    texts.push(shelf.title ?? '');
    const volumes = (await get<{ items?: Array<{ volumeInfo?: { title?: string; authors?: string[] } }> }>(`/books/v1/mylibrary/bookshelves/${shelf.id ?? 0}/volumes`)).items ?? [];
    texts.push(...volumes.flatMap((volume) => [volume.volumeInfo?.title ?? '', ...(volume.volumeInfo?.authors ?? [])]));
  }
  return [...new Set(texts.map((text) => text.trim()).filter((text) => text.length > 0))].sort((a, b) => b.length - a.length);
}

/** The English left in a text once its pseudo-localized parts, the user's data, dates and addresses are taken out. */
function untranslatedWords(text: string, data: readonly string[]): string[] {
  let rest = text.replace(/⟦[^⟧]*⟧/g, ' ');
  for (const value of data) rest = rest.split(value).join(' ');
  rest = rest.replace(/\$\([\w~-]+\)/g, ' ').replace(/\S+@\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ').replace(INTL_WORDS, ' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

/** The visible texts Desk wrote in the side bar: view titles, welcome pages, tree rows (label and description). */
async function sidebarTexts(page: Page): Promise<string[]> {
  const sidebar = page.locator('.part.sidebar');
  const texts = [
    ...(await sidebar.locator('.pane-header h3.title').allInnerTexts()),
    ...(await sidebar.locator('.welcome-view-content').allInnerTexts()),
  ];
  const rows = sidebar.locator('.monaco-list-row[role="treeitem"]');
  for (const row of await rows.all()) {
    texts.push(await row.locator('.monaco-icon-label').first().innerText().catch(() => ''));
    const label = await row.getAttribute('aria-label');
    if (label) texts.push(label);
  }
  return texts.map((text) => text.trim()).filter(Boolean);
}

/** Desk's items in the status bar (their ids start with the extension's). */
async function statusBarTexts(page: Page): Promise<string[]> {
  const items = page.locator('.part.statusbar .statusbar-item[id^="desk-dev.desk"]');
  return (await items.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}

/** Expands the top rows of a pane (lists, sections, days), so their children's words are on screen too. */
async function expandTopRows(pane: Locator): Promise<void> {
  const rows = pane.locator('.monaco-list-row[role="treeitem"][aria-level="1"][aria-expanded="false"]');
  for (let i = 0; i < 4 && (await rows.count()) > 0; i++) {
    const row = rows.first();
    await row.scrollIntoViewIfNeeded({ timeout: 5000 }).catch(() => undefined);
    await row.locator('.monaco-tl-twistie').click({ timeout: 5000 }).catch(() => undefined);
  }
}

describe('pseudo-localized run (qps-ploc, UI)', function () {
  this.timeout(240000);
  const opened = useWorkbench('failed-pseudo-', { seed: 'demo', locale: 'qps-ploc' });

  it('shows the manifest pseudo-localized and only pseudo-localized words in the welcome pages', async () => {
    const { page } = opened();
    await page.locator(`.part.activitybar [aria-label^="${exporter.pseudo('Desk')}"]`).first().click({ timeout: 30000 });
    await extensionsActivated(page);
    await page.locator('.part.sidebar .welcome-view-content').first().waitFor({ state: 'visible', timeout: 30000 });
    const texts = await sidebarTexts(page);
    assert.ok(texts.some((text) => text.includes(pseudoWords('Use the Local Emulator'))), `no pseudo-localized welcome button in: ${texts.join(' | ')}`);
    const left = texts.flatMap((text) => untranslatedWords(text, ['Desk']).map((word) => `${word} in "${text.slice(0, 120)}"`));
    assert.deepEqual(left, []);
  });

  it('shows only pseudo-localized words, besides the user\'s data, in every view and the status bar once signed in', async () => {
    const workbench = opened();
    const { page } = workbench;
    // Signed in already when this is mocha's retry of the test.
    const button = page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: pseudoWords('Use the Local Emulator') }).first();
    if (await button.isVisible()) await signInThroughConsent(workbench, { buttonText: pseudoWords('Use the Local Emulator') });
    const data = await userData(workbench.emulatorUrl);
    const found: string[] = [];
    for (const view of ['Tasks', 'Drive', 'Bookshelves', 'Calendar', 'TODOs', 'Channels']) {
      const title = exporter.pseudo(view);
      await expandView(page, title);
      const pane = page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${title}$`, 'i') }) }).first();
      await pane.locator('.monaco-list-row[role="treeitem"], .welcome-view-content').first().waitFor({ state: 'visible', timeout: 30000 }).catch(() => undefined);
      await expandTopRows(pane);
      await page.waitForTimeout(1500);
    }
    const texts = [...(await sidebarTexts(page)), ...(await statusBarTexts(page))];
    for (const text of texts) found.push(...untranslatedWords(text, data).map((word) => `${word} in "${text.slice(0, 120)}"`));
    await workbench.screenshot('pseudo-localized-desk');
    assert.ok(texts.length > 10, `too little on screen: ${texts.join(' | ')}`);
    assert.deepEqual([...new Set(found)], []);
  });
});
