#!/usr/bin/env node
// Renders media/icon.png (128×128, the Marketplace icon) from media/desk.svg in Debian's Chromium: the desk drawn
// in white on a blue rounded square. Run it again after changing the SVG; the PNG is committed.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const repoRoot = path.resolve(__dirname, '..', '..');

async function main() {
  const svg = fs.readFileSync(path.join(repoRoot, 'media', 'desk.svg'), 'utf8')
    .replace('stroke="currentColor"', 'stroke="#ffffff"')
    .replace('width="24" height="24"', 'width="92" height="92"');
  const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:linear-gradient(160deg,#2f7de1,#1a4fa3);display:flex;align-items:center;justify-content:center">${svg}</div>
</body></html>`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
    await page.setContent(html);
    await page.screenshot({ path: path.join(repoRoot, 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
  console.log('media/icon.png written');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
