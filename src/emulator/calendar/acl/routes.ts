/** HTTP ↔ model for acl.* (delete, get, insert, list, patch, update, watch). */
import { aclRuleInputSchema, SMALL_PAGE } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { Handler, Route } from '../../core/router';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../routing';
import { renderCollection } from '../render';
import type { CalendarService } from '../service';
import { renderAclRule } from './render';

const ACL = `${BASE}/calendars/:calendarId/acl`;

export function aclRoutes(service: CalendarService): readonly Route[] {
  const { acl } = service;
  const updateRule = (mode: 'update' | 'patch'): Handler => async (context) => {
    context.query.boolean('sendNotifications', true);
    const body = parseBody(aclRuleInputSchema, await context.json());
    return { json: renderAclRule(acl.update(userOf(context), context.params.calendarId, context.params.ruleId, body, mode, ifMatchOf(context))) };
  };
  return [
    {
      id: 'calendar.acl.list', method: 'GET', path: ACL,
      handle: (context) => {
        const syncToken = param(context, 'syncToken');
        const pageToken = param(context, 'pageToken');
        const page = acl.list(userOf(context), context.params.calendarId, {
          maxResults: context.query.integer('maxResults', SMALL_PAGE) as number,
          showDeleted: context.query.boolean('showDeleted', false),
          ...(syncToken !== undefined ? { syncToken } : {}),
          ...(pageToken !== undefined ? { pageToken } : {}),
        });
        return { json: renderCollection('calendar#acl', page, renderAclRule) };
      },
    },
    {
      id: 'calendar.acl.get', method: 'GET', path: `${ACL}/:ruleId`,
      handle: (context) => {
        const rule = acl.get(userOf(context), context.params.calendarId, context.params.ruleId);
        if (ifNoneMatchHits(rule.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
        return { json: renderAclRule(rule) };
      },
    },
    {
      id: 'calendar.acl.insert', method: 'POST', path: ACL,
      handle: async (context) => {
        context.query.boolean('sendNotifications', true);
        const body = parseBody(aclRuleInputSchema, await context.json());
        return { json: renderAclRule(acl.insert(userOf(context), context.params.calendarId, body)) };
      },
    },
    { id: 'calendar.acl.update', method: 'PUT', path: `${ACL}/:ruleId`, handle: updateRule('update') },
    { id: 'calendar.acl.patch', method: 'PATCH', path: `${ACL}/:ruleId`, handle: updateRule('patch') },
    {
      id: 'calendar.acl.delete', method: 'DELETE', path: `${ACL}/:ruleId`,
      handle: (context) => {
        acl.delete(userOf(context), context.params.calendarId, context.params.ruleId, ifMatchOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'calendar.acl.watch', method: 'POST', path: `${ACL}/watch`,
      handle: async (context) => {
        const user = userOf(context);
        // Watching the ACL needs the right to read it.
        acl.list(user, context.params.calendarId, { maxResults: 1, showDeleted: false });
        const calendarId = service.calendars.get(user, context.params.calendarId).id;
        return { json: await service.channels.watchFrom(context, watched(context, `acl/${calendarId}`, `/calendars/${encodeURIComponent(calendarId)}/acl`)) };
      },
    },
  ];
}
