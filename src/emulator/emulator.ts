import { IssuedTokens, TokenService } from './identity/tokens';
import { ALL_SCOPES, DEV_CLIENT_ID } from './identity/devToken';
import { findUser } from './identity/users';
import { readTrustedCaFiles } from './core/certificates';
import { closeChannels, configureChannelTrust, configureWatchNetwork } from './core/channels';
import { Route, Router } from './core/router';
import { DEFAULT_OPTIONS, EmulatorHttpServer, EmulatorOptions, ServiceDeps, ServiceModule } from './core/server';
import { SERVICE_MODULES } from './services';
import { FileStore } from './persistence/fileStore';
import { MemoryStore, Store } from './store/store';

export interface RunningEmulator {
  /** `http://127.0.0.1:<port>`: the root URL for every service. */
  readonly url: string;
  readonly port: number;
  readonly deps: ServiceDeps;
  /** Every route the emulator serves (discovery and scope tests check them against Google's documents). */
  routes(): readonly Route[];
  /** A token for a demo user without the browser flow (tests, scripts). */
  tokenFor(emailOrId: string): IssuedTokens;
  close(): Promise<void>;
}

const SEEDED_MARKER = 'emulator.meta';

/** Starts the emulator in this process (the CLI, the extension and the tests all come through here). */
export async function startEmulator(
  overrides: Partial<EmulatorOptions> = {},
  modules: readonly ServiceModule[] = SERVICE_MODULES,
): Promise<RunningEmulator> {
  // Its own set: the run-time route changes it, and emulators in one process must not share it.
  const options: EmulatorOptions = { ...DEFAULT_OPTIONS, ...overrides, disabledApis: new Set(overrides.disabledApis ?? []) };
  const store: Store = options.dataDir ? await FileStore.open(options.dataDir) : new MemoryStore();
  const now = options.now;
  const tokens = new TokenService(store, options.accessTokenLifetimeSeconds, now);
  const deps: ServiceDeps = { store, tokens, now, options };
  configureChannelTrust(store, readTrustedCaFiles(options.trustCaFiles));
  configureWatchNetwork(store, { allowedNetworks: options.allowWatchNetworks, allowLoopback: options.loopbackWatch });
  const router = new Router();
  for (const module of modules) module.register(router, deps);

  // Seed once per data directory, so a restart never duplicates or resurrects demo data.
  const meta = store.collection<{ seeded: boolean }>(SEEDED_MARKER);
  if (options.seed === 'demo' && !meta.get('seed')?.seeded) {
    for (const module of modules) await module.seedDemo?.(deps);
    meta.set('seed', { seeded: true });
    await store.flush();
  }

  const server = new EmulatorHttpServer(router, deps);
  const port = await server.listen(options.port, options.host);
  const url = `http://${options.host}:${port}`;
  return {
    url,
    port,
    deps,
    routes: () => router.routes(),
    tokenFor(emailOrId: string): IssuedTokens {
      const user = findUser(emailOrId);
      if (!user) throw new Error(`no demo user ${emailOrId}`);
      const issued = tokens.issue(user.id, DEV_CLIENT_ID, [...ALL_SCOPES]);
      void store.flush();
      return issued;
    },
    async close(): Promise<void> {
      await server.close();
      await closeChannels(store);
      await store.close();
    },
  };
}
