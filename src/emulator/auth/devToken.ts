/** Emulator-only endpoints: health, demo accounts, a token without a browser, and confidential OAuth clients. */
import * as z from '../../shared/schemas/zod';
import { ApiError, notFound } from '../core/errors';
import { parseBody } from '../core/params';
import { ServiceModule } from '../core/server';
import { ClientRegistry } from './clients';
import { DEMO_USERS, findUser } from './users';

/** The client id behind tokens handed out without a browser (scripts, tests, benchmarks). */
export const DEV_CLIENT_ID = 'desk-emulator-dev';
/** Every scope Desk's services use: what a script's token (and a test's) may do. */
export const ALL_SCOPES = [
  'https://www.googleapis.com/auth/tasks',
  'https://www.googleapis.com/auth/books',
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.apps.readonly',
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/admin.directory.user',
  'https://www.googleapis.com/auth/drive.labels.readonly',
];

/**
 * Emulator-only endpoints under `/emulator/v1`: health, the demo accounts, and a token for a demo user
 * without a browser, which is what Google's service accounts give scripts. The emulator binds to
 * loopback only, so these are reachable only from this machine.
 */
export const emulatorAdminModule: ServiceModule = {
  name: 'emulator',
  register(router, deps) {
    router.get('/emulator/v1/health', () => ({ json: { status: 'ok' } }), { auth: false });
    router.get('/emulator/v1/users', () => ({ json: { users: DEMO_USERS.map(({ id, email, name }) => ({ id, email, name })) } }), { auth: false });
    router.post(
      '/emulator/v1/token',
      (context) => {
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
      { auth: false },
    );
    // Registers an OAuth client with a secret (a "Web application" or confidential client in Google's console):
    // the token endpoint then insists on that secret, as Google does. Loopback-only, like the rest of /emulator.
    const clients = new ClientRegistry(deps.store, deps.now);
    router.post(
      '/emulator/v1/clients',
      async (context) => {
        const body = parseBody(
          z.strictObject({ client_id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))), client_secret: z.optional(z.string().check(z.minLength(1), z.maxLength(256))) }),
          await context.json(),
        );
        const registered = clients.register(body.client_id, body.client_secret);
        return { json: { client_id: registered.clientId, client_secret: registered.clientSecret } };
      },
      { auth: false },
    );
  },
};
