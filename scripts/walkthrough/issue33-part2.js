// Run (after npm run build and npx tsc -p tsconfig.test.json): flock /tmp/desk-heavy.lock node scripts/walkthrough/issue33-part2.js
// Issue 33 walkthrough, part 2: Add to Workspace reload, then a change elsewhere (1), Explorer Delete (3), task
// list counts/expanded state after the reload (6), New Event to its confirmation (4). Not a test; run under flock.
const path = require('node:path');
const W = require('../../out/test/ui/workbench.js');
const fetch = require('node-fetch');
const log = (...a) => console.log('[walk2]', ...a);
async function step(name, fn) { try { await fn(); } catch (e) { log(`STEP ${name} FAILED:`, String(e).split('\n')[0]); } }
(async () => {
  const wb = await W.openWorkbench({ seed: 'demo', settings: {} });
  const { page, browserContext } = wb;
  const shot = async (n) => { const f = await wb.screenshot(`walk2-${n}`); log('shot', path.basename(f)); };
  const input = page.locator('.quick-input-widget input.input');
  const toasts = page.locator('.notifications-toasts .notification-toast');
  try {
    await W.openDeskContainer(page);
    await W.signInThroughConsent(wb);
    const myTasks = W.treeRows(page).filter({ hasText: 'My Tasks' }).first();
    await myTasks.waitFor({ state: 'visible', timeout: 30000 });
    await myTasks.click();
    await page.keyboard.press('ArrowRight');
    await W.treeRows(page).filter({ hasText: 'Pay the electricity bill' }).first().waitFor({ state: 'visible', timeout: 30000 }).catch(() => log('no electricity row'));
    await page.waitForTimeout(1500);
    log('tasks before reload:', JSON.stringify((await W.treeRowLabels(page)).slice(0, 8)));
    log('list descriptions before:', JSON.stringify(await page.locator('.part.sidebar .pane').first().locator('.monaco-list-row[aria-level="1"]').allInnerTexts()));
    await shot('p6-tasks-before-reload');
    // Add to Workspace reloads the window (the reload of issue 33 point 1).
    const before = page.url();
    await W.chooseFromContextMenu(page, W.treeRow(page, 'My Drive'), 'Add to Workspace');
    await page.waitForURL((url) => url.toString() !== before && url.searchParams.has('workspace'), { timeout: 60000 });
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
    await W.openDeskContainer(page);
    const notice = W.notification(page, 'sign in to list the Drive folders');
    await notice.or(W.treeRows(page).filter({ hasText: 'My Tasks' }).first()).first().waitFor({ state: 'visible', timeout: 60000 });
    if (await notice.isVisible()) {
      log('reopened signed out: signing in from the notice');
      const consentPage = browserContext.waitForEvent('page', { timeout: 30000 });
      await notice.locator('.monaco-button', { hasText: 'Sign In' }).click();
      const consent = await consentPage;
      await consent.waitForLoadState('domcontentloaded');
      await consent.locator('button[name="account"][value="alice@example.com"]').click();
      await consent.waitForLoadState('domcontentloaded');
      await consent.close();
    }
    await W.treeRows(page).filter({ hasText: 'My Tasks' }).first().waitFor({ state: 'visible', timeout: 60000 });
    await page.waitForTimeout(3000);
    log('tasks after reload:', JSON.stringify((await W.treeRowLabels(page)).slice(0, 8)));
    log('list descriptions after:', JSON.stringify(await page.locator('.part.sidebar .pane').first().locator('.monaco-list-row[aria-level="1"]').allInnerTexts()));
    await shot('p6-tasks-after-reload');
    await step('p1', async () => {
      const token = await W.emulatorToken(wb.emulatorUrl);
      const q = encodeURIComponent("title = 'ideas.txt' and trashed = false");
      const { items: [file] } = await W.getAsAlice(wb.emulatorUrl, `/drive/v2/files?q=${q}`);
      for (const [i, body] of ['One edit elsewhere\n', 'Two edits elsewhere\n'].entries()) {
        const r = await fetch(`${wb.emulatorUrl}/upload/drive/v2/files/${file.id}?uploadType=media`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' }, body });
        log('p1 put', i, r.status);
        const t0 = Date.now();
        const item = page.locator('.part.statusbar .statusbar-item', { hasText: /ideas\.txt changed|Drive change/ }).first();
        await item.waitFor({ state: 'visible', timeout: 60000 });
        log('p1 status bar after', Date.now() - t0, 'ms:', await item.innerText(), '|', await item.getAttribute('aria-label'));
      }
      await shot('p1-announced-after-workspace-reload');
    });
    await step('p3', async () => {
      await W.activityItem(page, 'Explorer').click();
      await page.locator('.part.sidebar .explorer-folders-view').waitFor({ state: 'visible', timeout: 30000 });
      const rows = page.locator('.part.sidebar .explorer-folders-view .monaco-list-row[role="treeitem"]');
      const md = rows.filter({ has: page.locator('.label-name', { hasText: /^My Drive$/ }) }).first();
      await md.waitFor({ state: 'visible', timeout: 60000 });
      const notes = rows.filter({ has: page.locator('.label-name', { hasText: /^Notes$/ }) }).first();
      if (!(await notes.isVisible())) await md.click();
      const target = rows.filter({ has: page.locator('.label-name', { hasText: /^ideas\.txt$/ }) }).first();
      await target.waitFor({ state: 'visible', timeout: 60000 });
      await target.click();
      await page.keyboard.press('Delete');
      const dlg = page.locator('.monaco-dialog-box');
      await dlg.waitFor({ state: 'visible', timeout: 15000 });
      log('p3 VS Code dialog:', (await dlg.innerText()).replace(/\s+/g, ' '));
      await shot('p3-explorer-delete-dialog');
      const primary = dlg.locator('.monaco-button', { hasText: /^Delete$|Move to/ }).first();
      log('p3 pressing', await primary.innerText());
      await primary.click();
      await toasts.filter({ hasText: 'trash' }).first().waitFor({ state: 'visible', timeout: 30000 });
      log('p3 toasts:', JSON.stringify(await toasts.allInnerTexts()));
      await shot('p3-explorer-deleted');
    });
    await step('p4', async () => {
      await page.keyboard.press('Escape');
      await W.runCommand(page, 'Desk Calendar: New Event…');
      const rows = page.locator('.quick-input-list .monaco-list-row');
      const title = page.locator('.quick-input-widget .quick-input-message', { hasText: 'Title of the event' });
      await rows.first().or(title).first().waitFor({ state: 'visible', timeout: 20000 });
      if (!(await title.isVisible())) await input.press('Enter');
      await title.waitFor({ state: 'visible', timeout: 20000 });
      await input.fill('Walkthrough lunch');
      await input.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'When?' }).waitFor({ state: 'visible', timeout: 20000 });
      await input.fill('tomorrow 12:30');
      await page.locator('.quick-input-widget .quick-input-message', { hasText: '12:30' }).waitFor({ state: 'visible', timeout: 10000 });
      let prompt = await page.locator('.quick-input-widget .quick-input-message').innerText();
      await input.press('Enter');
      for (let i = 0; i < 8; i++) {
        const created = toasts.filter({ hasText: 'Walkthrough lunch' }).first();
        await page.locator('.quick-input-widget .quick-input-message').filter({ hasNotText: prompt }).or(created).first().waitFor({ state: 'visible', timeout: 20000 });
        if (await created.isVisible()) break;
        prompt = await page.locator('.quick-input-widget .quick-input-message').innerText();
        log('p4 step:', prompt.replace(/\s+/g, ' '));
        await input.press('Enter');
      }
      const created = toasts.filter({ hasText: 'Walkthrough lunch' }).first();
      await created.waitFor({ state: 'visible', timeout: 20000 });
      log('p4 confirmation:', (await created.innerText()).replace(/\s+/g, ' '));
      await shot('p4-created');
    });
  } finally {
    await wb.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
