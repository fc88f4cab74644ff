// Helpers for Playwright UI tests: a real VS Code workbench (code-server's VS Code 1.100.3 in Debian's Chromium)
// with Desk loaded as a development extension and pointed at a fresh emulator. The launcher itself is
// scripts/vscode/launch.js (plain JS shared with the suite runner and the demo); this file gives it types and
// the few UI moves every test needs. Selectors are the workbench's own, as of VS Code 1.100.
import * as fs from 'node:fs';
import * as path from 'node:path';
import fetch from 'node-fetch';
import type { BrowserContext, Locator, Page } from 'playwright-core';

type Launcher = typeof import('../../scripts/vscode/launch');

/** The repository root, found from this file whether it runs from out/test/ui or elsewhere. */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'desk') return dir;
    if (path.dirname(dir) === dir) throw new Error(`no Desk package.json above ${start}`);
  }
}

export const repoRoot = findRepoRoot(__dirname);
// Loaded at run time: the compiled test lives under out/, the launcher stays in scripts/.
const launcher = require(path.join(repoRoot, 'scripts', 'vscode', 'launch.js')) as Launcher;

/**
 * The parts of a DOM element the tests read inside the page (in evaluate callbacks). tsconfig has no DOM lib (the
 * extension runs in Node), so Playwright's own Element types do not resolve in this project.
 */
export interface PageElement {
  readonly textContent: string | null;
  readonly classList: { contains(name: string): boolean };
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
}

export interface OpenWorkbenchOptions {
  /** Emulator data: the demo accounts' lists and files, or nothing. Default demo. */
  seed?: 'demo' | 'none';
  /** User settings on top of the harness defaults (which already point Desk at the emulator). */
  settings?: Record<string, unknown>;
  /** VS Code's display language (e.g. 'qps-ploc', pseudo-localized); default English. */
  locale?: string;
  /** A durable emulator data folder (memory without), so the emulator can stop and start again on the same data. */
  dataDir?: string;
}

export interface OpenedWorkbench {
  page: Page;
  browserContext: BrowserContext;
  emulatorUrl: string;
  /**
   * Saves a PNG of the whole window under test-results/ui/ and returns its path. The pointer is parked first so no
   * hover covers the picture, unless `keepPointer` (the hover or menu under it is what the picture is for).
   */
  screenshot(name: string, options?: { keepPointer?: boolean }): Promise<string>;
  /** Stops the emulator (a network loss), and starts it again on the same port and data. */
  stopEmulator(): Promise<void>;
  restartEmulator(): Promise<void>;
  close(): Promise<void>;
}

/** Where a run's pictures go: test-results/, or the folder DESK_UI_RESULTS names (the run at a hostile hour keeps its own). */
export const RESULTS_DIR = path.resolve(repoRoot, process.env.DESK_UI_RESULTS ?? 'test-results');
export const SCREENSHOT_DIR = path.join(RESULTS_DIR, 'ui');

/** A screenshot of what the user sees now, as SCREENSHOT_DIR/<name> (to open and look at). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, name) });
}

export async function openWorkbench(options: OpenWorkbenchOptions = {}): Promise<OpenedWorkbench> {
  const workbench = await launcher.startWorkbench({ name: 'ui', seed: options.seed ?? 'demo', settings: options.settings ?? {}, ...(options.locale ? { locale: options.locale } : {}), ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  const { page } = workbench;
  try {
    // The activity bar is the last part to render; after it the workbench takes keyboard input.
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
  } catch (error) {
    await workbench.close();
    throw error;
  }
  return {
    page,
    browserContext: workbench.browserContext,
    emulatorUrl: workbench.emulatorUrl,
    async screenshot(name: string, options: { keepPointer?: boolean } = {}): Promise<string> {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      // Park the pointer over the empty editor area so no hover tooltip covers the picture.
      const size = page.viewportSize();
      if (size && !options.keepPointer) await page.mouse.move(size.width - 10, size.height / 2);
      await page.screenshot({ path: file });
      if (fs.statSync(file).size === 0) throw new Error(`the screenshot ${file} is empty`);
      return file;
    },
    stopEmulator: () => workbench.stopEmulator(),
    restartEmulator: () => workbench.restartEmulator(),
    close: () => workbench.close(),
  };
}

/**
 * The same VS Code opened at `url` by another browser with a profile of its own (another machine, say): nothing the
 * first browser kept (Desk's sign-in lives in the browser's secret storage) is there. close() ends it.
 */
export async function openInAnotherBrowser(url: string): Promise<{ page: Page; browserContext: BrowserContext; close(): Promise<void> }> {
  const runDir = launcher.makeRunDir('ui-browser');
  // The browser's own temporary folder (its sockets): launchBrowser points TMPDIR there.
  fs.mkdirSync(path.join(runDir, 'tmp'), { recursive: true });
  let browser: Awaited<ReturnType<Launcher['launchBrowser']>> | undefined;
  try {
    browser = await launcher.launchBrowser({ runDir });
    await browser.page.goto(url);
    await browser.page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
  } catch (error) {
    await browser?.close();
    launcher.removeRunDir(runDir);
    throw error;
  }
  const opened = browser;
  return {
    page: opened.page,
    browserContext: opened.context,
    close: async () => {
      await opened.close();
      launcher.removeRunDir(runDir);
    },
  };
}

/** The first row of the side bar's trees whose label matches. */
export function treeRow(page: Page, label: string | RegExp): Locator {
  return treeRows(page).filter({ has: page.locator('.label-name', { hasText: label }) }).first();
}

/** The activity-bar item of a view container, by its title. */
export function activityItem(page: Page, title: string): Locator {
  return page.locator(`.part.activitybar [aria-label^="${title}"]`).first();
}

/** Opens Desk's view container from the activity bar (waits for the extension to contribute it). */
export async function openDeskContainer(page: Page): Promise<void> {
  const item = activityItem(page, 'Desk');
  await item.waitFor({ state: 'visible', timeout: 30000 });
  const selected = await item.evaluate((element: PageElement) => element.closest('.action-item')?.classList.contains('checked') ?? false);
  if (!selected) await item.click();
  await page.locator('.part.sidebar').waitFor({ state: 'visible' });
  await extensionsActivated(page);
}

/** Waits until the status bar no longer says "Activating Extensions..." (Desk may activate on its views). */
export async function extensionsActivated(page: Page): Promise<void> {
  await page.locator('.part.statusbar .statusbar-item', { hasText: 'Activating Extensions' }).waitFor({ state: 'hidden', timeout: 30000 });
}

/** Runs a command from the palette by its title as shown there (e.g. "Desk Tasks: Add Task…": category, then title). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  // Enter only once the palette lists the command, or it runs whatever was first a moment earlier.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: 15000 });
  await input.press('Enter');
}

/**
 * Chooses `entry` in the context menu of `row` and waits until the menu is gone. A menu left open (by a failed
 * attempt) is closed first. As a hand does, the pointer rests on the entry before the click; a menu that is still
 * settling can drop that click (seen on a loaded machine: the menu stayed open with the entry focused), so the
 * focused entry is then chosen with Enter, which VS Code's menus handle the same way.
 */
export async function chooseFromContextMenu(page: Page, row: Locator, entry: string): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu');
  if (await menu.isVisible()) {
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden', timeout: 5000 });
  }
  await row.click({ button: 'right' });
  const item = page.locator('.context-view .action-label', { hasText: entry }).first();
  await item.waitFor({ state: 'visible', timeout: 15000 });
  await item.hover();
  await item.click();
  const closed = await menu.waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, () => false);
  if (closed) return;
  await item.hover();
  await page.locator('.context-view .action-item.focused .action-label', { hasText: entry }).waitFor({ state: 'visible', timeout: 5000 });
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: 15000 });
}

/** The rows of the trees in the side bar, in screen order. */
export function treeRows(page: Page): Locator {
  return page.locator('.part.sidebar .monaco-list-row[role="treeitem"]');
}

/** The rows' visible labels (first line of each), handy for deepEqual assertions. */
export async function treeRowLabels(page: Page): Promise<string[]> {
  const texts = await treeRows(page).locator('.label-name').allInnerTexts();
  return texts.map((text) => text.trim());
}

/** A notification toast once it has faded in (before that, a screenshot catches it half transparent). */
export function notification(page: Page, text?: string): Locator {
  const toasts = page.locator('.notifications-toasts .notification-toast.notification-fade-in-done');
  return text === undefined ? toasts : toasts.filter({ hasText: text });
}

export interface EmulatorSignInOptions {
  /** Where the welcome view with the "Use the Local Emulator" button is (default: the whole side bar). */
  within?: Locator;
  /** The demo account chosen on the consent page (default alice). */
  account?: string;
  /** How long the consent page may take to open (default 30 s). */
  consentTimeoutMs?: number;
  /** Checks on the consent page before the account is chosen. */
  beforeChoice?: (consent: Page) => Promise<void>;
  /** Checks on the page the consent answers with, before it is closed. */
  afterChoice?: (consent: Page) => Promise<void>;
  /** The welcome button's text (default "Use the Local Emulator"; another display language has its own). */
  buttonText?: string;
}

/**
 * Signs in as a user would: the welcome view's "Use the Local Emulator" button, then the account on the
 * emulator's consent page (the provider opens it with openExternal: a new page of the browser), which is then closed.
 */
export async function signInThroughConsent(
  workbench: { page: Page; browserContext: BrowserContext },
  options: EmulatorSignInOptions = {},
): Promise<void> {
  const { page, browserContext } = workbench;
  const consentPage = browserContext.waitForEvent('page', { timeout: options.consentTimeoutMs ?? 30000 });
  const within = options.within ?? page.locator('.part.sidebar');
  await within.locator('.welcome-view-content .monaco-button', { hasText: options.buttonText ?? 'Use the Local Emulator' }).first().click({ timeout: 30000 });
  const consent = await consentPage;
  await consent.waitForLoadState('domcontentloaded');
  await options.beforeChoice?.(consent);
  await consent.locator(`button[name="account"][value="${options.account ?? 'alice@example.com'}"]`).click();
  await consent.waitForLoadState('domcontentloaded');
  await options.afterChoice?.(consent);
  await consent.close();
  // Closing the consent page is not being signed in: Desk still exchanges the code and stores the session, and a
  // command run meanwhile finds it signed out ("sign in to search…"). Desk says so once its session is checked.
  await notification(page, options.account ?? 'alice@example.com').first().waitFor({ state: 'visible', timeout: 30000 });
}

/** The header of a side-bar view, by its title. */
function viewHeader(page: Page, title: string): Locator {
  return page.locator('.part.sidebar .pane-header', { has: page.locator('h3.title', { hasText: new RegExp(`^${title}$`, 'i') }) }).first();
}

/** Collapses a view of the side bar by its title, if it is expanded (to give the views below it the room). */
export async function collapseView(page: Page, title: string): Promise<void> {
  const header = viewHeader(page, title);
  // The title, not the header: a click on the header can land on one of its action buttons.
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.locator('h3.title').click();
}

/** Expands a view of the side bar by its title, if it is collapsed. */
export async function expandView(page: Page, title: string): Promise<void> {
  const header = viewHeader(page, title);
  await header.waitFor({ timeout: 30000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.locator('h3.title').click();
}

/** Expands the given Desk views and collapses the others, so the ones a test looks at have the room. */
export async function showOnlyViews(page: Page, titles: readonly string[]): Promise<void> {
  for (const title of DESK_VIEW_TITLES) if (!titles.includes(title)) await collapseView(page, title);
  for (const title of titles) await expandView(page, title);
}

const DESK_VIEW_TITLES = ['Tasks', 'Drive', 'TODOs', 'Bookshelves', 'Calendar'];

/** A token for a demo account from the emulator's developer endpoint: another client of the account, outside Desk. */
export async function emulatorToken(emulatorUrl: string, account = 'alice@example.com'): Promise<string> {
  const response = await fetch(`${emulatorUrl}/emulator/v1/token?user=${encodeURIComponent(account)}`, { method: 'POST' });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A GET to the emulator as alice, outside Desk, to check what Desk did; answers the parsed JSON body. */
export async function getAsAlice<T>(emulatorUrl: string, pathname: string): Promise<T> {
  const response = await fetch(`${emulatorUrl}${pathname}`, { headers: { Authorization: `Bearer ${await emulatorToken(emulatorUrl)}` } });
  return (await response.json()) as T;
}

/** Another client of alice's replaces the content of her Drive file titled `title` (outside Desk). */
export async function changeOnDriveAsAlice(emulatorUrl: string, title: string, text: string): Promise<void> {
  const q = encodeURIComponent(`title = '${title}' and trashed = false`);
  const file = (await getAsAlice<{ items: Array<{ id: string }> }>(emulatorUrl, `/drive/v2/files?q=${q}`)).items.at(0);
  if (!file) throw new Error(`no file titled ${title} on alice's Drive`);
  const response = await fetch(`${emulatorUrl}/upload/drive/v2/files/${file.id}?uploadType=media`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${await emulatorToken(emulatorUrl)}`, 'Content-Type': 'text/plain' },
    body: text,
  });
  if (response.status !== 200) throw new Error(`replacing ${title} on Drive answered ${response.status}`);
}

/**
 * Signs in to the demo emulator from Desk's container, gives the Drive view the side bar (Tasks above it and Calendar
 * below are open by default), opens the Drive file `fileName` and types `text` at its end (the editor is then dirty).
 */
export async function typeAtEndOfDriveFile(workbench: OpenedWorkbench, fileName: string, text: string): Promise<void> {
  const { page } = workbench;
  await openDeskContainer(page);
  await signInThroughConsent(workbench);
  await showOnlyViews(page, ['Drive']);
  await treeRow(page, fileName).waitFor({ state: 'visible', timeout: 30000 });
  await treeRow(page, fileName).click();
  const lines = page.locator('.editor-group-container .view-lines').first();
  await lines.waitFor({ state: 'visible', timeout: 20000 });
  await lines.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

/**
 * Mocha hooks for a suite that shares one workbench: opened before the first test, a screenshot
 * `<failurePrefix><test title>` after a failed test (what the user would have seen), closed after the last.
 * Returns a getter for the tests (it fails the test if the workbench did not open).
 */
export function useWorkbench(failurePrefix: string, options: OpenWorkbenchOptions = {}): () => OpenedWorkbench {
  let workbench: OpenedWorkbench | undefined;
  const failedAttempts = new Map<string, number>();
  before(async () => {
    workbench = await openWorkbench(options);
  });
  afterEach(async function () {
    const test = this.currentTest;
    // A failed attempt that mocha retries has no state yet (its error is logged by scripts/vscode/ui-reporter.js).
    if (!test || test.state === 'passed' || test.state === 'pending') return;
    const attempt = (failedAttempts.get(test.title) ?? 0) + 1;
    failedAttempts.set(test.title, attempt);
    await workbench?.screenshot(`${failurePrefix}${test.title}${test.state === 'failed' ? '' : `-attempt-${attempt}`}`);
  });
  after(async () => {
    await workbench?.close();
  });
  return () => {
    if (!workbench) throw new Error('the workbench did not open');
    return workbench;
  };
}
