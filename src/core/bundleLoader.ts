/**
 * Loads Desk's feature bundles (dist/features/<name>.js, CommonJS) with V8's code cache: a window's start compiles
 * ~2 MB of them while the extension host also answers the views, and compiling is about half of their loading time.
 * The cache of each bundle is written once the start has settled, in the extension's global storage, named after
 * the bundle's size and time, so a new build never meets an old cache (V8 also refuses one made from other source or
 * by another V8). Without a cache, or with one refused, the bundle compiles as `require` would compile it.
 */
import { promises as fsPromises, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { Script } from 'node:vm';

type CommonJsFactory = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

interface LoadedBundle {
  readonly script: Script;
  readonly cacheFile: string | undefined;
  /** Whether the cache it was compiled from was taken (then there is nothing to write). */
  readonly cached: boolean;
}

export class BundleLoader {
  private readonly loaded = new Map<string, LoadedBundle>();
  private readonly modules = new Map<string, unknown>();

  /** `cacheDir`: where the caches live (undefined: no cache); `requireFromBundle`: the `require` the bundles get. */
  constructor(private readonly cacheDir: string | undefined, private readonly requireFromBundle: NodeJS.Require) {}

  /** The bundle's exports, evaluated once, as `require(file)` would give them. */
  load<T>(file: string): T {
    if (this.modules.has(file)) return this.modules.get(file) as T;
    const source = readFileSync(file, 'utf8');
    const cacheFile = this.cacheFileOf(file);
    const cachedData = cacheFile ? readIfPresent(cacheFile) : undefined;
    // The same wrapper Node puts around a CommonJS module, so the bundle runs as it would under `require`.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
    const factory = script.runInThisContext() as CommonJsFactory;
    const module = { exports: {} as unknown };
    factory.call(module.exports, module.exports, this.requireFromBundle, module, file, path.dirname(file));
    this.loaded.set(file, { script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected });
    this.modules.set(file, module.exports);
    return module.exports as T;
  }

  /** Whether the bundle was compiled from its code cache (V8 took it). */
  compiledFromCache(file: string): boolean {
    return this.loaded.get(file)?.cached ?? false;
  }

  /**
   * Writes the cache of each bundle loaded without one, made now that its functions have run once (so they are in
   * it too), and removes the caches of earlier builds. Failures are only logged: the next start compiles again.
   */
  async saveCaches(log: (message: string) => void): Promise<void> {
    if (!this.cacheDir) return;
    const wanted = [...this.loaded.values()].filter((bundle) => !bundle.cached && bundle.cacheFile !== undefined);
    if (wanted.length === 0) return;
    try {
      await fsPromises.mkdir(this.cacheDir, { recursive: true });
      const keep = new Set([...this.loaded.values()].map((bundle) => bundle.cacheFile));
      for (const bundle of wanted) await fsPromises.writeFile(bundle.cacheFile as string, bundle.script.createCachedData());
      for (const name of await fsPromises.readdir(this.cacheDir)) {
        const full = path.join(this.cacheDir, name);
        if (name.endsWith('.v8cache') && !keep.has(full)) await fsPromises.rm(full, { force: true });
      }
    } catch (error) {
      log(`Desk: could not keep the code cache of its bundles: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private cacheFileOf(file: string): string | undefined {
    if (!this.cacheDir) return undefined;
    try {
      const { size, mtimeMs } = statSync(file);
      return path.join(this.cacheDir, `${path.basename(file, '.js')}-${size}-${Math.round(mtimeMs)}.v8cache`);
    } catch {
      return undefined;
    }
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
