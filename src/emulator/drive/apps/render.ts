/** Drive v2's about resource (the account, its quota, formats and themes) and the installed apps list. */
import type { About, AppList, DriveApp } from '../../../shared/schemas/drive';
import type { EmulatorUser } from '../../identity/users';
import { EXPORT_FORMATS, IMPORT_FORMATS } from '../content/convert';
import { MAX_UPLOAD_BYTES } from '../content/uploads';
import { DRIVE_THEMES } from '../drives/model';
import { themeBackground } from '../drives/render';

const QUOTA_TOTAL = 15 * 1024 ** 3;

export function renderAbout(baseUrl: string, user: EmulatorUser, rootId: string, usage: { readonly used: number; readonly inTrash: number }, largestChangeId: number): About {
  return {
    kind: 'drive#about',
    etag: `"about-${user.id}-${largestChangeId}"`,
    selfLink: `${baseUrl}/drive/v2/about`,
    name: user.name,
    user: { kind: 'drive#user', displayName: user.name, emailAddress: user.email, permissionId: user.id, isAuthenticatedUser: true },
    rootFolderId: rootId,
    permissionId: user.id,
    quotaType: 'LIMITED',
    quotaBytesTotal: String(QUOTA_TOTAL),
    quotaBytesUsed: String(usage.used),
    quotaBytesUsedAggregate: String(usage.used),
    quotaBytesUsedInTrash: String(usage.inTrash),
    largestChangeId: String(largestChangeId),
    remainingChangeIds: '0',
    importFormats: groupFormats(IMPORT_FORMATS),
    exportFormats: Object.entries(EXPORT_FORMATS).map(([source, targets]) => ({ source, targets: [...targets] })),
    maxUploadSizes: [{ type: '*', size: String(MAX_UPLOAD_BYTES) }],
    languageCode: 'en',
    canCreateDrives: true,
    driveThemes: DRIVE_THEMES.map((theme) => ({ id: theme.id, colorRgb: theme.colorRgb, backgroundImageLink: themeBackground(theme.id) })),
    deskLongPoll: true,
  };
}

export function renderAppList(baseUrl: string, apps: readonly DriveApp[]): AppList {
  return { kind: 'drive#appList', etag: '"apps-1"', selfLink: `${baseUrl}/drive/v2/apps`, defaultAppIds: ['desk-notes'], items: [...apps] };
}

function groupFormats(formats: Readonly<Record<string, string>>): { source: string; targets: string[] }[] {
  return Object.entries(formats).map(([source, target]) => ({ source, targets: [target] }));
}
