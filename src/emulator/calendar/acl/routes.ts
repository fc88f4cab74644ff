/** HTTP ↔ model for acl.* (delete, get, insert, list, patch, update, watch). */
import { aclRuleInputSchema, SMALL_PAGE } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { RequestContext, Router } from '../../core/router';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../http';
import type { CalendarService } from '../service';
import { renderAclRule } from './render';

const ACL = `${BASE}/calendars/:calendarId/acl`;

export function registerAclRoutes(router: Router, service: CalendarService): void {
  const { acl } = service;
  router.get(ACL, (context) => {
    const syncToken = param(context, 'syncToken');
    const pageToken = param(context, 'pageToken');
    const page = acl.list(userOf(context), context.params.calendarId as string, {
      maxResults: context.query.integer('maxResults', SMALL_PAGE) as number,
      showDeleted: context.query.boolean('showDeleted', false),
      ...(syncToken !== undefined ? { syncToken } : {}),
      ...(pageToken !== undefined ? { pageToken } : {}),
    });
    return {
      json: {
        kind: 'calendar#acl',
        etag: page.etag,
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
        items: page.items.map(renderAclRule),
      },
    };
  });
  router.get(`${ACL}/:ruleId`, (context) => {
    const rule = acl.get(userOf(context), context.params.calendarId as string, context.params.ruleId as string);
    if (ifNoneMatchHits(rule.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
    return { json: renderAclRule(rule) };
  });
  router.post(ACL, async (context) => {
    context.query.boolean('sendNotifications', true);
    const body = parseBody(aclRuleInputSchema, await context.json());
    return { json: renderAclRule(acl.insert(userOf(context), context.params.calendarId as string, body)) };
  });
  for (const mode of ['update', 'patch'] as const) {
    const handler = async (context: RequestContext): Promise<{ json: unknown }> => {
      context.query.boolean('sendNotifications', true);
      const body = parseBody(aclRuleInputSchema, await context.json());
      return { json: renderAclRule(acl.update(userOf(context), context.params.calendarId as string, context.params.ruleId as string, body, mode, ifMatchOf(context))) };
    };
    router[mode === 'update' ? 'put' : 'patch'](`${ACL}/:ruleId`, handler);
  }
  router.delete(`${ACL}/:ruleId`, (context) => {
    acl.delete(userOf(context), context.params.calendarId as string, context.params.ruleId as string, ifMatchOf(context));
    return { status: 204, empty: true };
  });
  router.post(`${ACL}/watch`, async (context) => {
    const user = userOf(context);
    // Watching the ACL needs the right to read it.
    acl.list(user, context.params.calendarId as string, { maxResults: 1, showDeleted: false });
    const calendarId = service.calendars.get(user, context.params.calendarId as string).id;
    return { json: await service.channels.watchFrom(context, watched(context, `acl/${calendarId}`, `/calendars/${encodeURIComponent(calendarId)}/acl`)) };
  });
}
