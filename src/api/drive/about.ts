/** Drive's about and apps resources: the account, its quota and formats, and the installed apps. */
import { About, aboutSchema, AppList, appListSchema, appSchema, DriveApp } from '../../shared/schemas/drive';
import { path } from '../http';
import type { DriveContext } from './context';

export async function getAbout(drive: DriveContext, signal?: AbortSignal): Promise<About> {
  const about = await drive.http.json(aboutSchema, { method: 'GET', path: '/drive/v2/about', signal, operation: 'drive.about.get' });
  if (about.deskLongPoll !== undefined) drive.longPoll = about.deskLongPoll;
  return about;
}

export function listApps(drive: DriveContext, signal?: AbortSignal): Promise<AppList> {
  return drive.http.json(appListSchema, { method: 'GET', path: '/drive/v2/apps', signal, operation: 'drive.apps.list' });
}

export function getApp(drive: DriveContext, appId: string, signal?: AbortSignal): Promise<DriveApp> {
  return drive.http.json(appSchema, { method: 'GET', path: path`/drive/v2/apps/${appId}`, signal, operation: 'drive.apps.get' });
}
