/**
 * What a Calendar call reaches when the only granted scopes allowing it are the narrow ones: `calendar.app.created`
 * (the secondary calendars this app created, and their events) and `calendar.events.owned` / `.owned.readonly` (the
 * events of calendars the user owns). A calendar outside them is refused with Google's scope error; the calendars an
 * app creates are remembered per OAuth client, durably.
 */
import { ApiError } from '../core/errors';
import type { Handler, Route, RequestContext } from '../core/router';
import { limitRoutes, narrowGrantOf, scopeUrl } from '../core/scopes';
import { AppOwnedIds } from '../store/appOwned';
import type { Store } from '../store/store';
import type { CalendarService } from './service';

const APP_CREATED = scopeUrl('calendar.app.created');
const EVENTS_OWNED: ReadonlySet<string> = new Set([scopeUrl('calendar.events.owned'), scopeUrl('calendar.events.owned.readonly')]);
const NARROW: ReadonlySet<string> = new Set([APP_CREATED, ...EVENTS_OWNED]);

/** The calendars each OAuth client (Calendar's "app") created. */
export class AppCalendars extends AppOwnedIds {
  constructor(store: Store) {
    super(store, 'calendar.appCalendars');
  }
}

interface ScopeLimit {
  readonly appId: string;
  /** calendar.app.created allows the call: the app's own calendars are reachable. */
  readonly appCalendars: boolean;
  /** calendar.events.owned(.readonly) allows the call: the calendars the user owns are reachable. */
  readonly ownedCalendars: boolean;
}

function scopesError(): ApiError {
  return new ApiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
}

/** Calendar's routes, each run within what the token's narrow scopes reach, remembering the calendars an app creates. */
export function withinScopeLimits(service: CalendarService, appCalendars: AppCalendars, routes: readonly Route[]): Route[] {
  const limitOf = (context: RequestContext): ScopeLimit | undefined => {
    const narrow = narrowGrantOf(context, NARROW);
    if (!narrow) return undefined;
    return { appId: narrow.clientId, appCalendars: narrow.allowing.includes(APP_CREATED), ownedCalendars: narrow.allowing.some((scope) => EVENTS_OWNED.has(scope)) };
  };
  /** Refuses a calendar the limit does not reach; an unknown one is left to the handler's 404. */
  const check = (context: RequestContext, limit: ScopeLimit, calendarId: string): void => {
    if (!context.user) return;
    const calendar = service.calendars.find(service.calendars.resolveId(context.user, calendarId));
    if (!calendar) return;
    const reached = (limit.appCalendars && appCalendars.has(limit.appId, calendar.id)) || (limit.ownedCalendars && service.acl.roleOf(context.user, calendar) === 'owner');
    if (!reached) throw scopesError();
  };
  const limited = (handle: Handler): Handler => async (context) => {
    const limit = limitOf(context);
    if (limit) {
      const calendarId = context.params.calendarId as string | undefined;
      if (calendarId !== undefined) check(context, limit, calendarId);
      // events.move takes the event to another calendar: the limit must reach that one too.
      const destination = context.routeId === 'calendar.events.move' ? context.query.string('destination') : undefined;
      if (destination) check(context, limit, destination);
    }
    const reply = await handle(context);
    if (context.routeId === 'calendar.calendars.insert' && 'json' in reply) {
      const appId = context.grant?.clientId;
      const created = (reply.json as { id?: unknown } | null)?.id;
      if (appId !== undefined && typeof created === 'string') appCalendars.add(appId, created);
    }
    return reply;
  };
  return limitRoutes(routes, limited);
}
