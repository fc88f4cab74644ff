/**
 * The free/busy webview's page, built without vscode: one section per day, one lane per calendar, busy blocks placed
 * by a stylesheet generated here (the strict Content-Security-Policy allows no inline style attributes, only the
 * page's nonce'd <style> and <script>). Colours come from the theme (--vscode-* variables) or the calendar's own hex
 * colour; blocks are focusable with an aria-label, and the arrow keys move between them.
 */
import { english, type Translate } from '../../../shared/l10n';
import { clockTime } from '../time';

export interface BusyBlock {
  readonly start: number;
  readonly end: number;
}

export interface FreeBusyLane {
  readonly id: string;
  readonly label: string;
  readonly color?: string | undefined;
  readonly foreground?: string | undefined;
  readonly busy: readonly BusyBlock[];
  readonly error?: string | undefined;
}

export interface FreeBusyDay {
  readonly key: string;
  readonly label: string;
  readonly start: number;
  readonly end: number;
}

export interface FreeBusyView {
  readonly title: string;
  readonly timeZone: string;
  readonly days: readonly FreeBusyDay[];
  readonly lanes: readonly FreeBusyLane[];
}

const HOUR_MS = 3_600_000;
const HEX = /^#[0-9a-fA-F]{6}$/;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);
}

/** The hours shown: working hours (8 to 18), widened to whatever busy time falls outside them. */
export function visibleHours(view: FreeBusyView): { from: number; to: number } {
  let from = 8;
  let to = 18;
  for (const day of view.days) {
    for (const lane of view.lanes) {
      for (const block of lane.busy) {
        const start = Math.max(block.start, day.start);
        const end = Math.min(block.end, day.end);
        // A block over the whole day (an all-day event) says nothing about which hours to show.
        if (end <= start || (start === day.start && end === day.end)) continue;
        from = Math.min(from, Math.floor((start - day.start) / HOUR_MS));
        to = Math.max(to, Math.ceil((end - day.start) / HOUR_MS));
      }
    }
  }
  return { from: Math.max(0, from), to: Math.min(24, Math.max(to, from + 1)) };
}

/** `page.t` words the page (vscode.l10n.t; English by default); `page.lang` is its display language. */
export function freeBusyHtml(view: FreeBusyView, page: { nonce: string; cspSource: string; t?: Translate; lang?: string }): string {
  const t = page.t ?? english;
  const { from, to } = visibleHours(view);
  const span = (to - from) * HOUR_MS;
  const rules: string[] = [];
  const sections: string[] = [];
  let blockIndex = 0;
  view.lanes.forEach((lane, laneIndex) => {
    if (lane.color && HEX.test(lane.color)) {
      const foreground = lane.foreground && HEX.test(lane.foreground) ? lane.foreground : '#000000';
      rules.push(`.lane-${laneIndex} .busy{background:${lane.color};color:${foreground}}`, `.lane-${laneIndex} .swatch{background:${lane.color}}`);
    }
  });
  for (const day of view.days) {
    const windowStart = day.start + from * HOUR_MS;
    const windowEnd = windowStart + span;
    const hours = Array.from({ length: to - from }, (_, index) => `<span class="hour">${String(from + index).padStart(2, '0')}</span>`).join('');
    const lanes = view.lanes.map((lane, laneIndex) => {
      const blocks = lane.busy
        .filter((block) => block.end > windowStart && block.start < windowEnd)
        .map((block) => {
          const id = `b${blockIndex++}`;
          const left = ((Math.max(block.start, windowStart) - windowStart) / span) * 100;
          const width = Math.max(0.8, ((Math.min(block.end, windowEnd) - Math.max(block.start, windowStart)) / span) * 100);
          rules.push(`#${id}{left:${left.toFixed(3)}%;width:${width.toFixed(3)}%}`);
          const wholeDay = block.start <= day.start && block.end >= day.end;
          const range = wholeDay ? t('all day') : `${clockTime(block.start, view.timeZone)}–${clockTime(block.end, view.timeZone)}`;
          // Too narrow for its times: the label stays in the hover and for screen readers.
          const classes = ['busy', ...(wholeDay ? ['allday'] : []), ...(width < 5 ? ['narrow'] : width < 14 && !wholeDay ? ['short'] : [])].join(' ');
          const text = classes.includes('short') ? clockTime(block.start, view.timeZone) : range;
          return `<div class="${classes}" id="${id}" tabindex="0" role="img" data-lane="${laneIndex}" aria-label="${escapeHtml(t('{0}: busy {1}, {2}', lane.label, range, day.label))}" title="${escapeHtml(t('{0}: busy {1}', lane.label, range))}"><span>${escapeHtml(text)}</span></div>`;
        });
      const body = lane.error
        ? `<div class="error">${escapeHtml(lane.error)}</div>`
        : blocks.length ? blocks.join('') : `<span class="free">${escapeHtml(t('free'))}</span>`;
      return `<div class="lane lane-${laneIndex}" role="group" aria-label="${escapeHtml(`${lane.label}, ${day.label}`)}"><div class="lane-label"><span class="swatch"></span>${escapeHtml(lane.label)}</div><div class="track">${body}</div></div>`;
    }).join('');
    sections.push(`<section class="day" aria-label="${escapeHtml(day.label)}"><h2>${escapeHtml(day.label)}</h2><div class="ruler"><div class="lane-label"></div><div class="hours">${hours}</div></div>${lanes}</section>`);
  }
  const csp = `default-src 'none'; img-src ${page.cspSource} data:; style-src 'nonce-${page.nonce}'; script-src 'nonce-${page.nonce}';`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(view.title)}</title>
<style nonce="${page.nonce}">
body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:0 16px 16px}
h1{font-size:1.3em;font-weight:600;margin:14px 0 2px}
.subtitle{color:var(--vscode-descriptionForeground);margin:0 0 12px}
h2{font-size:1.05em;font-weight:600;margin:14px 0 4px}
.day{border-top:1px solid var(--vscode-panel-border,var(--vscode-widget-border,#8884));padding-top:4px}
.ruler,.lane{display:flex;align-items:center}
.lane-label{flex:0 0 190px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;padding-right:8px}
.hours{flex:1;display:flex}
.hour{flex:1;color:var(--vscode-descriptionForeground);font-size:.85em;border-left:1px solid var(--vscode-editorWidget-border,#8884);padding-left:2px}
.track{flex:1;position:relative;height:26px;margin:3px 0;background:var(--vscode-editorWidget-background,#8881);border:1px solid var(--vscode-editorWidget-border,#8884);border-radius:3px}
.busy{position:absolute;top:2px;bottom:2px;text-overflow:ellipsis;background:var(--vscode-charts-blue);color:var(--vscode-editor-background);border-radius:3px;overflow:hidden;white-space:nowrap;font-size:.8em;line-height:20px;padding:0 4px;box-sizing:border-box;cursor:default}
.busy.narrow span{display:none}
.busy.allday{opacity:.6;text-align:center}
.busy:focus{outline:2px solid var(--vscode-focusBorder);outline-offset:1px;z-index:1}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;background:var(--vscode-charts-blue);vertical-align:middle}
.free{position:absolute;left:6px;line-height:24px;color:var(--vscode-descriptionForeground);font-style:italic;font-size:.85em}
.error{padding:0 6px;line-height:24px;color:var(--vscode-errorForeground)}
#status{margin-top:12px;min-height:1.4em;color:var(--vscode-descriptionForeground)}
${rules.join('\n')}
</style>
</head>
<body>
<h1>${escapeHtml(view.title)}</h1>
<p class="subtitle">${escapeHtml(t('Times in {0}. Tab to a busy block; the arrow keys move between blocks.', view.timeZone))}</p>
${sections.join('\n')}
<div id="status" role="status" aria-live="polite"></div>
<script nonce="${page.nonce}">
(function () {
  const blocks = Array.from(document.querySelectorAll('.busy'));
  const status = document.getElementById('status');
  function focusAt(index) { const block = blocks[Math.max(0, Math.min(blocks.length - 1, index))]; if (block) block.focus(); }
  blocks.forEach(function (block, index) {
    block.addEventListener('focus', function () { status.textContent = block.getAttribute('aria-label'); });
    block.addEventListener('keydown', function (event) {
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown') { focusAt(index + 1); event.preventDefault(); }
      else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') { focusAt(index - 1); event.preventDefault(); }
      else if (event.key === 'Home') { focusAt(0); event.preventDefault(); }
      else if (event.key === 'End') { focusAt(blocks.length - 1); event.preventDefault(); }
    });
  });
}());
</script>
</body>
</html>`;
}
