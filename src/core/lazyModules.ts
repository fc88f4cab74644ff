/**
 * Loaders of the modules activation must not load. Each is a plain `require` inside a function, so nothing runs
 * until the first call; the production build turns it into a `require` of that module's own bundle (esbuild.js).
 */

/** The HTTP pipeline, the OAuth flow and the emulator's process (core/backend/network.ts). */
export function network(): typeof import('./backend/network') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./backend/network') as typeof import('./backend/network');
}

/** The offline mechanism: connectivity, the queue of writes made offline and its status item (core/offline/offline.ts). */
export function offlineModule(): typeof import('./offline/offline') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./offline/offline') as typeof import('./offline/offline');
}

/**
 * Stands for the object `create` makes, made at the first use of one of its members (a method call, a getter): a
 * feature holds its API clients from its start, and their module loads only when the first request is sent.
 * Not a thenable (`await` of it makes nothing); `instanceof` does not see through it.
 */
export function madeOnFirstUse<T extends object>(create: () => T): T {
  let made: T | undefined;
  return new Proxy({} as T, {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      made ??= create();
      const instance = made;
      const value: unknown = Reflect.get(instance, property, instance);
      if (typeof value !== 'function') return value;
      const method = value as (this: T, ...args: unknown[]) => unknown;
      return (...args: unknown[]): unknown => method.apply(instance, args);
    },
  });
}
