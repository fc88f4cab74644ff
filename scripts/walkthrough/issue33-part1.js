// Run (after npm run build and npx tsc -p tsconfig.test.json): flock /tmp/desk-heavy.lock node scripts/walkthrough/issue33-part1.js
// Issue 33 walkthrough as a new user: screenshots and observations (not a test; run under flock).
const path = require('node:path');
const fs = require('node:fs');
const W = require('../../out/test/ui/workbench.js');
const fetch = require('node-fetch');
const log = (...a) => console.log('[walk]', ...a);
async function step(name, fn) { try { await fn(); } catch (e) { log(`STEP ${name} FAILED:`, String(e).split('\n')[0]); } }
(async () => {
  const wb = await W.openWorkbench({ seed: 'demo', settings: {} });
  const { page } = wb;
  const shot = async (n) => { const f = await wb.screenshot(`walk-${n}`); log('shot', path.basename(f)); };
  const input = page.locator('.quick-input-widget input.input');
  const msg = page.locator('.quick-input-widget .quick-input-message');
  try {
    await W.openDeskContainer(page);
    // Point 2: Sign in with Google without a client.
    await step('p2', async () => {
      const btn = page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: /Sign in with Google/i }).first();
      await btn.waitFor({ state: 'visible', timeout: 30000 });
      await btn.click();
      const dlg = page.locator('.monaco-dialog-box');
      await dlg.waitFor({ state: 'visible', timeout: 15000 });
      log('p2 dialog:', (await dlg.innerText()).replace(/\s+/g, ' '));
      await shot('p2-google-dialog');
      await dlg.locator('.monaco-button', { hasText: 'Enter Client ID' }).click();
      await input.waitFor({ state: 'visible' });
      await input.fill('not-a-client-id');
      await page.waitForTimeout(800);
      log('p2 validation:', await msg.innerText().catch(() => '?'));
      await shot('p2-bad-client-id');
      await input.press('Escape');
      await page.waitForTimeout(1500);
      const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
      log('p2 toasts after cancel:', JSON.stringify(toasts));
      const active = await page.locator('.part.activitybar .action-item.checked').first().getAttribute('aria-label').catch(() => '?');
      log('p2 active container:', active);
    });
    await W.openDeskContainer(page);
    await W.signInThroughConsent(wb);
    await W.treeRows(page).filter({ hasText: 'My Tasks' }).first().waitFor({ state: 'visible', timeout: 30000 });
    await page.waitForTimeout(2000);
    // Point 8: sizes.
    await step('p8', async () => {
      const bodies = await page.locator('.part.sidebar .pane').evaluateAll((panes) => panes.map((p) => `${p.querySelector('.pane-header')?.getAttribute('aria-label')}: ${Math.round(p.getBoundingClientRect().height)}`));
      log('p8 panes:', JSON.stringify(bodies));
      await shot('p8-layout');
    });
    // Point 5: palette.
    await step('p5', async () => {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill('>Desk: Search');
      await page.waitForTimeout(1000);
      const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      log('p5 rows:', JSON.stringify(rows.slice(0, 4)));
      await shot('p5-palette');
      await input.press('Escape');
    });
    // Point 4 + 6 (picker): New Event.
    await step('p4', async () => {
      await W.runCommand(page, 'Desk Calendar: New Event…');
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: 20000 }).catch(() => undefined);
      log('p6 calendar picker:', JSON.stringify(await rows.allInnerTexts()));
      await shot('p6-calendar-picker');
      if (await rows.first().isVisible()) await input.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'Title of the event' }).waitFor({ state: 'visible', timeout: 20000 });
      await input.fill('x'.repeat(2000));
      await input.press('Enter');
      await page.waitForTimeout(1000);
      log('p4 long title msg:', (await msg.innerText()).slice(0, 300), 'len', (await msg.innerText()).length);
      await shot('p4-long-title');
      if (!(await page.locator('.quick-input-widget', { hasText: 'When?' }).isVisible())) { await input.fill('Walkthrough lunch'); await input.press('Enter'); }
      await page.locator('.quick-input-widget', { hasText: 'When?' }).waitFor({ state: 'visible', timeout: 20000 });
      log('p4 when placeholder:', await input.getAttribute('placeholder'), '| prompt:', await msg.innerText());
      await input.fill('31 Feb 10:00');
      await page.waitForTimeout(800);
      log('p4 31 Feb:', await msg.innerText());
      await shot('p4-31-feb');
      await input.fill('y'.repeat(2000));
      await page.waitForTimeout(800);
      log('p4 long when msg len:', (await msg.innerText()).length, (await msg.innerText()).slice(0, 200));
      await shot('p4-long-when');
      await input.fill('tomorrow 12:30');
      await page.waitForTimeout(800);
      log('p4 preview:', await msg.innerText());
      await input.press('Enter');
      for (let i = 0; i < 4; i++) {
        await page.waitForTimeout(1500);
        if (!(await page.locator('.quick-input-widget').isVisible())) break;
        log('p4 next step:', (await page.locator('.quick-input-widget').innerText()).replace(/\s+/g, ' ').slice(0, 200));
        await shot(`p4-step-${i}`);
        await input.press('Enter');
      }
      await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'visible', timeout: 15000 });
      log('p4 toasts:', JSON.stringify(await page.locator('.notifications-toasts .notification-toast').allInnerTexts()));
      await shot('p4-created');
    });
    // Point 6: event details.
    await step('p6', async () => {
      await W.runCommand(page, 'Desk Calendar: Open Event Details');
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: 20000 });
      await input.press('Enter');
      const frame = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
      await frame.locator('h1').first().waitFor({ state: 'visible', timeout: 20000 });
      const text = await frame.locator('body').innerText();
      log('p6 details:', text.replace(/\s+/g, ' ').slice(0, 500));
      log('p6 has Status: confirmed', /Status: confirmed/i.test(text), 'has @group', /@group\.calendar/.test(text));
      await shot('p6-event-details');
      await page.keyboard.press('Control+K'); await page.keyboard.press('W');
    });
    // Point 1: change elsewhere after a window reload.
    await step('p1', async () => {
      await page.reload();
      await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
      await W.openDeskContainer(page);
      await W.treeRows(page).filter({ hasText: 'My Tasks' }).first().waitFor({ state: 'visible', timeout: 60000 });
      await page.waitForTimeout(3000);
      await shot('p6-tasks-after-reload');
      const token = await W.emulatorToken(wb.emulatorUrl);
      const q = encodeURIComponent("title = 'ideas.txt' and trashed = false");
      const { items: [file] } = await W.getAsAlice(wb.emulatorUrl, `/drive/v2/files?q=${q}`);
      const r = await fetch(`${wb.emulatorUrl}/upload/drive/v2/files/${file.id}?uploadType=media`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' }, body: 'Changed elsewhere after the reload\n' });
      log('p1 put', r.status, new Date().toISOString());
      const t0 = Date.now();
      // Announced in the status bar ("ideas.txt changed"), not in a notification.
      const item = page.locator('.part.statusbar .statusbar-item', { hasText: /ideas\.txt changed|Drive change/ }).first();
      await item.waitFor({ state: 'visible', timeout: 90000 });
      log('p1 announced after', Date.now() - t0, 'ms:', await item.innerText());
      await shot('p1-announced-after-reload');
    });
  } finally {
    await wb.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
