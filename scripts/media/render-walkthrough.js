#!/usr/bin/env node
// Renders the walkthrough's images (media/walkthrough/*.png) from the UI suite's screenshots in test-results/:
// run `npm run test:ui` first, then this. Each image is a crop of the real workbench (the view the step is about),
// so the walkthrough shows what the user will see. The PNGs are committed.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const repoRoot = path.resolve(__dirname, '..', '..');
const results = path.join(repoRoot, 'test-results');

/** name → [screenshot, clip in the 1400×900 screenshot]. */
const CROPS = {
  emulator: ['ui/smoke-desk-container.png', { x: 48, y: 40, width: 300, height: 300 }],
  tasks: ['tasks.png', { x: 48, y: 40, width: 300, height: 420 }],
  drive: ['drive-tree.png', { x: 48, y: 40, width: 300, height: 420 }],
  books: ['books-view.png', { x: 48, y: 40, width: 620, height: 420 }],
  calendar: ['calendar-view.png', { x: 48, y: 40, width: 300, height: 470 }],
  todo: ['ui/todo-hover.png', { x: 350, y: 60, width: 480, height: 220 }],
};

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    for (const [name, [source, clip]] of Object.entries(CROPS)) {
      const file = path.join(results, source);
      if (!fs.existsSync(file)) {
        console.log(`skipped ${name}: ${source} is missing (run npm run test:ui)`);
        continue;
      }
      const data = fs.readFileSync(file).toString('base64');
      await page.setContent(`<body style="margin:0"><img src="data:image/png;base64,${data}" style="display:block"></body>`);
      await page.screenshot({ path: path.join(repoRoot, 'media', 'walkthrough', `${name}.png`), clip });
      console.log(`media/walkthrough/${name}.png`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
