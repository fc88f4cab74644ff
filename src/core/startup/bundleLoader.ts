/**
 * Loads Desk's feature bundles (dist/features/<name>.js, CommonJS) with V8's code cache: a window's start compiles
 * ~2 MB of them while the extension host also answers the views, and compiling is about half of their loading time.
 *
 * V8 checks little of a cache it is given (in release builds only its header and the source's length), and a cache
 * V8 takes but that does not fit crashes the extension host, at every start. So Desk checks its own: each cache file
 * is named after a hash of the bundle's source (a new build never meets an old cache), holds a hash of its own bytes
 * (a file damaged on disk is not used), and is written whole or not at all (a temporary file renamed into place, so
 * two windows writing at once, or a power cut, cannot leave half of one). Without a usable cache the bundle compiles
 * as `require` would compile it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsPromises, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';

type CommonJsFactory = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

interface LoadedBundle {
  readonly script: Script;
  readonly cacheFile: string | undefined;
  /** Whether the cache it was compiled from was taken (then there is nothing to write). */
  readonly cached: boolean;
}

/** A cache file: this tag, the SHA-256 of the V8 data, then the V8 data. */
const CACHE_TAG = Buffer.from('DESK-V8C1');
const DIGEST_BYTES = 32;
/** Temporary files older than this are left over from a window that stopped mid-write. */
const STALE_TEMPORARY_MS = 60_000;

export class BundleLoader {
  private readonly loaded = new Map<string, LoadedBundle>();
  private readonly modules = new Map<string, unknown>();

  /** `cacheDir`: where the caches live (undefined: no cache). */
  constructor(private readonly cacheDir: string | undefined) {}

  /** The bundle's exports, evaluated once, as `require(file)` would give them. */
  load(file: string): unknown {
    if (this.modules.has(file)) return this.modules.get(file);
    const source = readFileSync(file, 'utf8');
    const cacheFile = this.cacheDir ? path.join(this.cacheDir, `${path.basename(file, '.js')}-${sha256(source).toString('hex').slice(0, 24)}.v8cache`) : undefined;
    const cachedData = cacheFile ? readCache(cacheFile) : undefined;
    // The same wrapper Node puts around a CommonJS module, so the bundle runs as it would under `require`.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
    const factory = script.runInThisContext() as CommonJsFactory;
    const module = { exports: {} as unknown };
    // Its own `require`, resolving from its own folder, as Node would give it.
    factory.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
    this.loaded.set(file, { script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected });
    this.modules.set(file, module.exports);
    return module.exports;
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
    const cacheDir = this.cacheDir;
    const wanted = [...this.loaded.values()].filter((bundle) => !bundle.cached && bundle.cacheFile !== undefined);
    if (wanted.length === 0) return;
    try {
      await fsPromises.mkdir(cacheDir, { recursive: true });
      for (const bundle of wanted) await writeWhole(bundle.cacheFile as string, withDigest(bundle.script.createCachedData()));
      const keep = new Set([...this.loaded.values()].map((bundle) => bundle.cacheFile));
      for (const name of await fsPromises.readdir(cacheDir)) {
        const full = path.join(cacheDir, name);
        if (name.endsWith('.v8cache') && !keep.has(full)) await fsPromises.rm(full, { force: true });
        if (name.endsWith('.tmp') && Date.now() - (await fsPromises.stat(full)).mtimeMs > STALE_TEMPORARY_MS) await fsPromises.rm(full, { force: true });
      }
    } catch (error) {
      log(`Desk: could not keep the code cache of its bundles: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function withDigest(data: Buffer): Buffer {
  return Buffer.concat([CACHE_TAG, sha256(data), data]);
}

/** The V8 data of a cache file whose own hash holds; undefined when there is none or it is damaged. */
function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const headerBytes = CACHE_TAG.length + DIGEST_BYTES;
  if (bytes.length <= headerBytes || !bytes.subarray(0, CACHE_TAG.length).equals(CACHE_TAG)) return undefined;
  const data = bytes.subarray(headerBytes);
  return sha256(data).equals(bytes.subarray(CACHE_TAG.length, headerBytes)) ? data : undefined;
}

/** Writes a temporary file beside `file` and renames it into place: readers see the old file or the new, whole. */
async function writeWhole(file: string, data: Buffer): Promise<void> {
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsPromises.writeFile(temporary, data);
    await fsPromises.rename(temporary, file);
  } finally {
    await fsPromises.rm(temporary, { force: true });
  }
}
