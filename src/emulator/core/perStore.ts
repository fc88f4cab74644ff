/**
 * One instance per emulator store. A service's routes, its demo seed and other services (channels) must share one
 * model and its in-memory indexes; keyed by the store, an emulator restarted on the same process gets fresh ones.
 */
import type { Store } from '../store/store';

/** What a per-store part is built from. */
export interface StoreDeps {
  readonly store: Store;
  readonly now: () => number;
}

/** Wraps a factory so that each store gets exactly one instance, built on first use. */
export function perStore<TDeps extends StoreDeps, T>(create: (deps: TDeps) => T): (deps: TDeps) => T {
  const instances = new WeakMap<Store, T>();
  return (deps) => {
    let instance = instances.get(deps.store);
    if (instance === undefined) {
      instance = create(deps);
      instances.set(deps.store, instance);
    }
    return instance;
  };
}
