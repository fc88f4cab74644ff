/** Emulator-only endpoints under `/emulator/v1`: health, demo accounts, a token without a browser, and confidential OAuth clients. */
import * as z from '../../shared/schemas/zod';
import { EMULATED_APIS, isEmulatedApiName } from '../core/disabledApis';
import { ApiError, notFound } from '../core/errors';
import { parseBody } from '../core/params';
import type { Route } from '../core/router';
import type { ServiceDeps, ServiceModule } from '../core/server';
import { ClientRegistry } from '../identity/clients';
import { ALL_SCOPES, DEV_CLIENT_ID } from '../identity/devToken';
import { DEMO_USERS, findUser } from '../identity/users';

/**
 * Emulator-only endpoints under `/emulator/v1`: health, the demo accounts, and a token for a demo user
 * without a browser, which is what Google's service accounts give scripts. The emulator binds to
 * loopback only, so these are reachable only from this machine.
 */
export function emulatorAdminRoutes(deps: ServiceDeps): readonly Route[] {
  // Confidential OAuth clients (a "Web application" in Google's console): the token endpoint then insists on their
  // secret, as Google does.
  const clients = new ClientRegistry(deps.store, deps.now);
  return [
    { id: 'emulator.health', method: 'GET', path: '/emulator/v1/health', auth: false, handle: () => ({ json: { status: 'ok' } }) },
    {
      id: 'emulator.users', method: 'GET', path: '/emulator/v1/users', auth: false,
      handle: () => ({ json: { users: DEMO_USERS.map(({ id, email, name }) => ({ id, email, name })) } }),
    },
    {
      id: 'emulator.token', method: 'POST', path: '/emulator/v1/token', auth: false,
      handle: (context) => {
        const wanted = context.query.string('user') ?? DEMO_USERS[0]?.email;
        if (!wanted) throw new ApiError(400, 'required', 'Required parameter: user', { location: 'user' });
        const user = findUser(wanted);
        if (!user) throw notFound(`No demo user '${wanted}'. Known: ${DEMO_USERS.map((u) => u.email).join(', ')}`);
        const issued = deps.tokens.issue(user.id, DEV_CLIENT_ID, ALL_SCOPES);
        return {
          json: {
            access_token: issued.accessToken,
            refresh_token: issued.refreshToken,
            expires_in: issued.expiresIn,
            token_type: 'Bearer',
            scope: issued.scopes.join(' '),
            user: { id: user.id, email: user.email },
          },
        };
      },
    },
    {
      // Simulates APIs not enabled in the client's Cloud project (as `--disable-api`): their calls answer Google's 403 SERVICE_DISABLED.
      id: 'emulator.disabledApis', method: 'PUT', path: '/emulator/v1/disabled-apis', auth: false,
      handle: async (context) => {
        const body = parseBody(z.strictObject({ apis: z.array(z.string()) }), await context.json());
        const unknown = body.apis.find((name) => !isEmulatedApiName(name));
        if (unknown !== undefined) throw new ApiError(400, 'invalid', `Unknown API '${unknown}'. Known: ${Object.keys(EMULATED_APIS).join(', ')}`, { location: 'apis' });
        deps.options.disabledApis.clear();
        for (const name of body.apis) if (isEmulatedApiName(name)) deps.options.disabledApis.add(name);
        return { json: { apis: [...deps.options.disabledApis] } };
      },
    },
    {
      // Registers an OAuth client with a secret. Loopback-only, like the rest of /emulator.
      id: 'emulator.clients', method: 'POST', path: '/emulator/v1/clients', auth: false,
      handle: async (context) => {
        const body = parseBody(
          z.strictObject({ client_id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))), client_secret: z.optional(z.string().check(z.minLength(1), z.maxLength(256))) }),
          await context.json(),
        );
        const registered = clients.register(body.client_id, body.client_secret);
        return { json: { client_id: registered.clientId, client_secret: registered.clientSecret } };
      },
    },
  ];
}

export const emulatorAdminModule: ServiceModule = {
  name: 'emulator',
  register(router, deps) {
    router.addAll(emulatorAdminRoutes(deps));
  },
};
