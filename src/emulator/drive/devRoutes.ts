/** The emulator's own Drive pages under /emulator/v1/drive: the alternateLink page and iconLink icons (no user data, so no sign-in). */
import { FOLDER_MIME_TYPE } from '../../shared/schemas/drive';
import { escapeHtml } from '../core/html';
import type { Reply, RequestContext, Route } from '../core/router';

export const driveDevRoutes: readonly Route[] = [
  { id: 'emulator.drive.openPage', method: 'GET', path: '/emulator/v1/drive/open/:fileId', handle: openPage, auth: false },
  { id: 'emulator.drive.icon', method: 'GET', path: '/emulator/v1/drive/icons/:mimeType', handle: icon, auth: false },
];

/** A page for alternateLink (the emulator has no Drive web UI): it names no file details. */
function openPage(context: RequestContext): Reply {
  return {
    body: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Desk emulator</title></head><body><p>This file lives in the Desk emulator. Open it from the Desk view in VS Code.</p><p>File id: ${escapeHtml(context.params.fileId as string)}</p></body></html>`,
    contentType: 'text/html; charset=utf-8',
  };
}

/** iconLink targets: a small generic icon per kind of file. */
function icon(context: RequestContext): Reply {
  return {
    body: iconSvg(context.params.mimeType as string),
    contentType: 'image/svg+xml',
    headers: { 'Cache-Control': 'public, max-age=86400' },
  };
}

function iconSvg(mimeType: string): string {
  const color = mimeType === FOLDER_MIME_TYPE ? '#5f6368'
    : mimeType.endsWith('.document') ? '#4285f4'
    : mimeType.endsWith('.spreadsheet') ? '#0f9d58'
    : mimeType.endsWith('.presentation') ? '#f4b400'
    : mimeType.startsWith('image/') ? '#db4437'
    : '#9aa0a6';
  const shape = mimeType === FOLDER_MIME_TYPE ? '<path d="M1 3h5l1.5 1.5H15V13H1z"/>' : '<path d="M3 1h7l3 3v11H3z"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16" fill="${color}">${shape}</svg>`;
}
