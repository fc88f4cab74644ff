/** The emulator's own Drive pages under /emulator/v1/drive: the alternateLink page and iconLink icons (no user data, so no sign-in). */
import type { Reply, RequestContext, Route } from '../core/router';
import { renderIcon, renderOpenPage } from './render';

export const driveDevRoutes: readonly Route[] = [
  { id: 'emulator.drive.openPage', method: 'GET', path: '/emulator/v1/drive/open/:fileId', handle: openPage, auth: false },
  { id: 'emulator.drive.icon', method: 'GET', path: '/emulator/v1/drive/icons/:mimeType', handle: icon, auth: false },
];

/** A page for alternateLink (the emulator has no Drive web UI): it names no file details. */
function openPage(context: RequestContext): Reply {
  return {
    body: renderOpenPage(context.params.fileId),
    contentType: 'text/html; charset=utf-8',
  };
}

/** iconLink targets: a small generic icon per kind of file. */
function icon(context: RequestContext): Reply {
  return {
    body: renderIcon(context.params.mimeType),
    contentType: 'image/svg+xml',
    headers: { 'Cache-Control': 'public, max-age=86400' },
  };
}
