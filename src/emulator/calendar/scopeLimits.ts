/**
 * What a Calendar call reaches when the only granted scopes allowing it are the narrow ones: `calendar.app.created`
 * (the secondary calendars this app created, and their events) and `calendar.events.owned` / `.owned.readonly` (the
 * events of calendars the user owns). A calendar outside them is refused with Google's scope error; the calendars an
 * app creates are remembered per OAuth client, durably.
 */
import { header } from '../core/context';
import { ApiError } from '../core/errors';
import type { Handler, Route, RequestContext } from '../core/router';
import { scopesFor } from '../core/scopes';
import type { TokenService } from '../auth/tokens';
import { AppOwnedIds } from '../store/appOwned';
import type { Store } from '../store/store';
import type { CalendarService } from './service';

const AUTH = 'https://www.googleapis.com/auth/';
const APP_CREATED = `${AUTH}calendar.app.created`;
const EVENTS_OWNED: ReadonlySet<string> = new Set([`${AUTH}calendar.events.owned`, `${AUTH}calendar.events.owned.readonly`]);

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

function tokenOf(context: RequestContext): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header(context, 'authorization') ?? '')?.[1] ?? context.query.string('access_token', 4096);
}

function scopesError(): ApiError {
  return new ApiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
}

/** Calendar's routes, each run within what the token's narrow scopes reach, remembering the calendars an app creates. */
export function withinScopeLimits(service: CalendarService, tokens: TokenService, appCalendars: AppCalendars, routes: readonly Route[]): Route[] {
  const limitOf = (context: RequestContext): ScopeLimit | undefined => {
    const token = tokenOf(context);
    const record = token !== undefined ? tokens.describe(token) : undefined;
    const needed = record ? scopesFor(context.routeId, context.method, new URLSearchParams()) : undefined;
    if (!record || !needed) return undefined;
    const allowing = needed.filter((scope) => record.scopes.includes(scope));
    if (allowing.length === 0 || allowing.some((scope) => scope !== APP_CREATED && !EVENTS_OWNED.has(scope))) return undefined;
    return { appId: record.clientId, appCalendars: allowing.includes(APP_CREATED), ownedCalendars: allowing.some((scope) => EVENTS_OWNED.has(scope)) };
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
    const limit = context.user ? limitOf(context) : undefined;
    if (limit) {
      const calendarId = context.params.calendarId;
      if (calendarId !== undefined) check(context, limit, calendarId);
      // events.move takes the event to another calendar: the limit must reach that one too.
      const destination = context.routeId === 'calendar.events.move' ? context.query.string('destination') : undefined;
      if (destination) check(context, limit, destination);
    }
    const reply = await handle(context);
    if (context.routeId === 'calendar.calendars.insert' && 'json' in reply) {
      const token = tokenOf(context);
      const appId = token !== undefined ? tokens.describe(token)?.clientId : undefined;
      const created = (reply.json as { id?: unknown } | null)?.id;
      if (appId !== undefined && typeof created === 'string') appCalendars.add(appId, created);
    }
    return reply;
  };
  return routes.map((route) => ({ ...route, handle: limited(route.handle) }));
}
