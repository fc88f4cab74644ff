/** Drive's about and apps routes: the account with its quota and formats, and the installed apps. */
import type { About, AppList } from '../../../shared/schemas/drive';
import { requireUser } from '../../core/context';
import { notFound } from '../../core/errors';
import type { RequestContext, Route } from '../../core/router';
import { EXPORT_FORMATS, IMPORT_FORMATS } from '../content/convert';
import { MAX_UPLOAD_BYTES } from '../content/uploads';
import type { DriveRouteKit } from '../routing';
import { DEMO_APPS, findApp } from './model';
import { DRIVE_THEMES } from '../drives/model';
import { themeBackground } from '../drives/render';

const QUOTA_TOTAL = 15 * 1024 ** 3;

export function appRoutes(kit: DriveRouteKit): Route[] {
  const { model } = kit.service;
  return [
    { id: 'drive.about.get', method: 'GET', path: '/drive/v2/about', handle: getAbout },
    { id: 'drive.apps.list', method: 'GET', path: '/drive/v2/apps', handle: listApps },
    { id: 'drive.apps.get', method: 'GET', path: '/drive/v2/apps/:appId', handle: getApp },
  ];

  function getAbout(context: RequestContext) {
    const user = requireUser(context);
    context.query.boolean('includeSubscribed', true);
    context.query.integer('maxChangeIdCount', { min: 0 });
    context.query.integer('startChangeId', { min: 0 });
    const root = model.rootOf(user);
    const usage = model.usage(user.id);
    const about: About = {
      kind: 'drive#about',
      etag: `"about-${user.id}-${model.largestChangeId()}"`,
      selfLink: `${context.baseUrl}/drive/v2/about`,
      name: user.name,
      user: { kind: 'drive#user', displayName: user.name, emailAddress: user.email, permissionId: user.id, isAuthenticatedUser: true },
      rootFolderId: root.id,
      permissionId: user.id,
      quotaType: 'LIMITED',
      quotaBytesTotal: String(QUOTA_TOTAL),
      quotaBytesUsed: String(usage.used),
      quotaBytesUsedAggregate: String(usage.used),
      quotaBytesUsedInTrash: String(usage.inTrash),
      largestChangeId: String(model.largestChangeId()),
      remainingChangeIds: '0',
      importFormats: groupFormats(IMPORT_FORMATS),
      exportFormats: Object.entries(EXPORT_FORMATS).map(([source, targets]) => ({ source, targets: [...targets] })),
      maxUploadSizes: [{ type: '*', size: String(MAX_UPLOAD_BYTES) }],
      languageCode: 'en',
      canCreateDrives: true,
      driveThemes: DRIVE_THEMES.map((theme) => ({ id: theme.id, colorRgb: theme.colorRgb, backgroundImageLink: themeBackground(theme.id) })),
      deskLongPoll: true,
    };
    return { json: about };
  }

  function listApps(context: RequestContext) {
    requireUser(context);
    const list: AppList = { kind: 'drive#appList', etag: '"apps-1"', selfLink: `${context.baseUrl}/drive/v2/apps`, defaultAppIds: ['desk-notes'], items: [...DEMO_APPS] };
    return { json: list };
  }

  function getApp(context: RequestContext) {
    requireUser(context);
    const app = findApp(context.params.appId as string);
    if (!app) throw notFound(`App not found: ${context.params.appId}`);
    return { json: app };
  }
}

function groupFormats(formats: Readonly<Record<string, string>>): { source: string; targets: string[] }[] {
  return Object.entries(formats).map(([source, target]) => ({ source, targets: [target] }));
}
