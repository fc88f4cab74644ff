/** Drive's about and apps routes: the account with its quota and formats, and the installed apps. */
import { DEMO_APPS, findApp } from './model';
import { renderAbout, renderAppList } from './render';
import type { DriveRouteKit } from '../routing';
import { requireUser } from '../../core/context';
import { notFound } from '../../core/errors';
import type { RequestContext, Route } from '../../core/router';

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
    return { json: renderAbout(context.baseUrl, user, root.id, usage, model.largestChangeId()) };
  }

  function listApps(context: RequestContext) {
    requireUser(context);
    return { json: renderAppList(context.baseUrl, DEMO_APPS) };
  }

  function getApp(context: RequestContext) {
    requireUser(context);
    const app = findApp(context.params.appId);
    if (!app) throw notFound(`App not found: ${context.params.appId}`);
    return { json: app };
  }
}
