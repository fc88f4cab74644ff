/** HTTP ↔ model for the Admin SDK's directory users (list, get, insert, update, patch, delete, undelete, makeAdmin), users.watch in both forms and channels.stop, as one table of named routes, plus the channel CA's dev routes. */
import { isIP } from 'node:net';
import * as z from '../../shared/schemas/zod';
import type { EmulatorUser } from '../identity/users';
import type { ChannelRegistry } from '../core/channels';
import { requireUser } from '../core/context';
import { badRequest, forbidden, invalid, required } from '../core/errors';
import { parseBody } from '../core/params';
import type { Handler, RequestContext, Route } from '../core/router';
import { DEMO_DOMAIN, DirectoryModel, DirectoryUserInput, USER_EVENTS, usersResourceKey } from './model';
import { renderUser, renderUsers, ViewType } from './render';

const USERS = '/admin/directory/v1/users';
const USER = `${USERS}/:userKey`;
/** Google's Admin SDK push channels live at most 6 hours; the emulator uses that as both default and maximum. */
export const DIRECTORY_CHANNEL_TTL_MS = 6 * 60 * 60 * 1000;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const optionalText = z.optional(z.nullable(z.string()));
const optionalFlag = z.optional(z.nullable(z.boolean()));
const userInputSchema = z.object({
  primaryEmail: optionalText,
  name: z.optional(z.nullable(z.object({ givenName: optionalText, familyName: optionalText, fullName: optionalText }))),
  password: optionalText,
  hashFunction: optionalText,
  suspended: optionalFlag,
  archived: optionalFlag,
  changePasswordAtNextLogin: optionalFlag,
  includeInGlobalAddressList: optionalFlag,
  ipWhitelisted: optionalFlag,
  orgUnitPath: optionalText,
  recoveryEmail: optionalText,
});
const makeAdminSchema = z.object({ status: z.optional(z.nullable(z.boolean())) });
const undeleteSchema = z.object({ orgUnitPath: optionalText });

/** The body's settable fields, nulls read as absent (the official client may send them). */
function userInput(body: unknown): DirectoryUserInput {
  const parsed = parseBody(userInputSchema, body);
  if (parsed.hashFunction) throw invalid('Only plain-text passwords are supported by the emulator', 'hashFunction', 'body');
  const input: DirectoryUserInput = {};
  const text = (value: string | null | undefined): string | undefined => value ?? undefined;
  const flag = (value: boolean | null | undefined): boolean | undefined => value ?? undefined;
  const set = <K extends keyof DirectoryUserInput>(key: K, value: DirectoryUserInput[K] | undefined): void => {
    if (value !== undefined) input[key] = value;
  };
  set('primaryEmail', text(parsed.primaryEmail));
  if (parsed.name) {
    const name: NonNullable<DirectoryUserInput['name']> = {};
    if (parsed.name.givenName != null) name.givenName = parsed.name.givenName;
    if (parsed.name.familyName != null) name.familyName = parsed.name.familyName;
    input.name = name;
  }
  set('password', text(parsed.password));
  set('suspended', flag(parsed.suspended));
  set('archived', flag(parsed.archived));
  set('changePasswordAtNextLogin', flag(parsed.changePasswordAtNextLogin));
  set('includeInGlobalAddressList', flag(parsed.includeInGlobalAddressList));
  set('ipWhitelisted', flag(parsed.ipWhitelisted));
  set('orgUnitPath', text(parsed.orgUnitPath));
  set('recoveryEmail', text(parsed.recoveryEmail));
  return input;
}

export function directoryRoutes(model: DirectoryModel, channels: ChannelRegistry): readonly Route[] {
  /** The customer a list or watch names, by `domain` or `customer` (one of them is required). */
  const customerOf = (context: RequestContext): { customerId: string; by: 'domain' | 'customer'; value: string } => {
    const domain = context.query.string('domain', 256);
    const customer = context.query.string('customer', 256);
    if (customer) return { customerId: model.customer(customer), by: 'customer', value: customer };
    if (domain) return { customerId: model.customerOfDomain(domain), by: 'domain', value: domain.toLowerCase() };
    throw badRequest('Bad Request: either customer or domain is required');
  };

  /** Admins see the admin view; anyone else only the domain-public one, and must ask for it (as Google requires). */
  const viewFor = (context: RequestContext, user: EmulatorUser, self = false): ViewType => {
    const view = context.query.enumValue('viewType', ['admin_view', 'domain_public'] as const, 'admin_view') as ViewType;
    context.query.enumValue('projection', ['basic', 'custom', 'full'] as const);
    if (view === 'admin_view' && !self && !model.isAdmin(user)) throw forbidden('Not Authorized to access this resource/api');
    return view;
  };

  /**
   * users.watch, in the two forms of the spec's versioning table. Both name the same resource (the customer's users),
   * so the resourceId is the same; the resourceUri is each form's own.
   */
  const watch = (form: 'domain' | 'customer'): Handler => async (context) => {
    const user = requireUser(context);
    const target = customerOf(context);
    const event = context.query.enumValue('event', USER_EVENTS);
    // Only the domain's administrators may watch its users.
    model.requireAdmin(user);
    const query = new URLSearchParams({ [target.by]: target.by === 'domain' ? DEMO_DOMAIN : target.value, ...(event ? { event } : {}), alt: 'json' });
    const path = form === 'domain' ? USERS : '/admin/directory/users/v1';
    return {
      json: await channels.watchFrom(context, {
        service: 'directory',
        key: usersResourceKey(target.customerId),
        uri: `${context.baseUrl}${path}?${query.toString()}`,
        maxTtlMs: DIRECTORY_CHANNEL_TTL_MS,
        ...(event ? { events: [event] } : {}),
      }),
    };
  };
  return [
    {
      id: 'directory.users.list', method: 'GET', path: USERS,
      handle: (context) => {
        const user = requireUser(context);
        const view = viewFor(context, user);
        const { customerId } = customerOf(context);
        const showDeleted = context.query.boolean('showDeleted', false);
        if (showDeleted && !model.isAdmin(user)) throw forbidden('Not Authorized to access this resource/api');
        context.query.enumValue('event', USER_EVENTS);
        const pageToken = context.query.string('pageToken', 256);
        const query = context.query.string('query', 1024);
        const page = model.list({
          customerId,
          showDeleted,
          orderBy: context.query.enumValue('orderBy', ['email', 'givenName', 'familyName'] as const, 'email') ?? 'email',
          descending: context.query.enumValue('sortOrder', ['ASCENDING', 'DESCENDING'] as const, 'ASCENDING') === 'DESCENDING',
          maxResults: context.query.integer('maxResults', { min: 1, max: 500, default: 100 }) ?? 100,
          ...(pageToken !== undefined ? { pageToken } : {}),
          ...(query !== undefined && query !== '' ? { query } : {}),
        });
        return { json: renderUsers(page, view) };
      },
    },
    {
      id: 'directory.users.insert', method: 'POST', path: USERS,
      handle: async (context) => {
        const user = requireUser(context);
        context.query.boolean('resolveConflictAccount', false);
        return { json: renderUser(model.insert(user, userInput(await context.json())), 'admin_view') };
      },
    },
    {
      id: 'directory.users.get', method: 'GET', path: USER,
      handle: (context) => {
        const user = requireUser(context);
        const found = model.find(context.params.userKey as string);
        return { json: renderUser(found, viewFor(context, user, found.id === user.id)) };
      },
    },
    {
      id: 'directory.users.update', method: 'PUT', path: USER,
      handle: async (context) => {
        const user = requireUser(context);
        return { json: renderUser(model.modify(user, context.params.userKey as string, userInput(await context.json()), 'update'), 'admin_view') };
      },
    },
    {
      id: 'directory.users.patch', method: 'PATCH', path: USER,
      handle: async (context) => {
        const user = requireUser(context);
        return { json: renderUser(model.modify(user, context.params.userKey as string, userInput(await context.json()), 'patch'), 'admin_view') };
      },
    },
    {
      id: 'directory.users.delete', method: 'DELETE', path: USER,
      handle: (context) => {
        model.delete(requireUser(context), context.params.userKey as string);
        return { status: 204, empty: true };
      },
    },
    {
      id: 'directory.users.undelete', method: 'POST', path: `${USER}/undelete`,
      handle: async (context) => {
        const user = requireUser(context);
        const body = parseBody(undeleteSchema, await context.json());
        model.undelete(user, context.params.userKey as string, body.orgUnitPath ?? undefined);
        return { status: 204, empty: true };
      },
    },
    {
      id: 'directory.users.makeAdmin', method: 'POST', path: `${USER}/makeAdmin`,
      handle: async (context) => {
        const user = requireUser(context);
        const body = parseBody(makeAdminSchema, await context.json());
        if (body.status === undefined || body.status === null) throw invalid('Required field: status', 'status', 'body');
        model.makeAdmin(user, context.params.userKey as string, body.status);
        return { status: 204, empty: true };
      },
    },
    { id: 'directory.users.watch', method: 'POST', path: `${USERS}/watch`, handle: watch('domain') },
    // The spec's customer form of the same operation: the version segment stands in another place.
    { id: 'directory.users.watch', method: 'POST', path: '/admin/directory/users/v1/watch', handle: watch('customer') },
    {
      id: 'admin.channels.stop', method: 'POST', path: '/admin/directory_v1/channels/stop',
      handle: async (context) => {
        await channels.stopFrom(context, 'directory');
        return { status: 204, empty: true };
      },
    },
    // ---- dev routes. Emulator-only, loopback like the rest of /emulator/v1: the CA clients trust, and receiver
    // certificates from it (what `desk-emulator cert --url` asks a running emulator for, the in-memory CA included).
    {
      id: 'emulator.channels.ca', method: 'GET', path: '/emulator/v1/channels/ca', auth: false,
      handle: () => ({ contentType: 'application/x-pem-file', body: channels.certificateAuthority().certPem }),
    },
    {
      id: 'emulator.channels.certificates', method: 'POST', path: '/emulator/v1/channels/certificates', auth: false,
      handle: async (context) => {
        const hosts = context.query.all('host');
        if (hosts.length === 0) throw required('host');
        if (hosts.length > 16) throw invalid('At most 16 hosts', 'host');
        for (const host of hosts) if (!isIP(host) && !HOST_NAME.test(host)) throw invalid(`Invalid host: ${host.slice(0, 100)}`, 'host');
        const authority = channels.certificateAuthority();
        return { json: { ...(await authority.issueAsync({ hosts })), ca: authority.certPem } };
      },
    },
  ];
}
