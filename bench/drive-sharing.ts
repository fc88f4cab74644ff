import { performance } from 'node:perf_hooks';
import { EmulatorUser, findUser } from '../src/emulator/identity/users';
import { driveServiceFor } from '../src/emulator/drive/service';
import { startEmulator } from '../src/emulator/emulator';
import { FOLDER_MIME_TYPE, fileListSchema } from '../src/shared/schemas/drive';
import { ms, percentiles } from './support/stats';

/**
 * Sharing's cost on folder listings (printed, never asserted). Today's method (bench/drive-emulator.ts): p50 / p95
 * of `'<folder>' in parents and trashed = false` over HTTP for a 100-file folder, memory store, 10,000 files.
 *  - baseline: bob owns 10,000 files (100 per folder), nothing is shared; he lists one of his folders.
 *  - shared: alice also owns 10,000 files, each shared with bob on its own (10,000 grants in his index); bob lists
 *    one of his folders, one of alice's folders he can see only through the per-file grants, and `sharedWithMe`.
 *  - shared drive: alice's shared drive with 10,000 more files (100 per folder), bob a member (writer); he lists one
 *    of its folders (includeItemsFromAllDrives): roles come from membership, one look-up per file.
 * The target: the shared figures' p50 within 2× of the baseline.
 */
const SAMPLES = 100;
const FILES = 10_000;
const PER_FOLDER = 100;

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const bob = findUser('bob@example.com') as EmulatorUser;
    const { model, permissions, drives } = driveServiceFor(emulator.deps);
    const headers = { Authorization: `Bearer ${emulator.tokenFor(bob.email).accessToken}` };
    const q = encodeURIComponent;
    const list = async (query: string, expected: number, extra = ''): Promise<void> => {
      const response = await fetch(`${emulator.url}/drive/v2/files?q=${q(query)}&maxResults=100${extra}`, { headers });
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      const page = fileListSchema.parse(await response.json());
      if (page.items.length !== expected) throw new Error(`expected ${expected} files, got ${page.items.length}`);
    };
    const timed = async (request: () => Promise<void>): Promise<{ p50: number; p95: number }> => {
      const values: number[] = [];
      for (let index = 0; index < 10; index++) await request(); // warm up
      for (let index = 0; index < SAMPLES; index++) {
        const started = performance.now();
        await request();
        values.push(performance.now() - started);
      }
      return percentiles(values);
    };
    const fill = (owner: EmulatorUser, prefix: string, shareWith?: EmulatorUser, parentId = 'root'): string => {
      let folderId = '';
      let first = '';
      for (let index = 0; index < FILES; index++) {
        if (index % PER_FOLDER === 0) {
          folderId = model.insert(owner, { title: `${prefix}-folder-${index / PER_FOLDER}`, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] }).id;
          if (!first) first = folderId;
        }
        const file = model.insert(owner, { title: `${prefix}-${index}.txt`, parents: [{ id: folderId }] });
        if (shareWith) permissions.insert(owner, file.id, { type: 'user', role: 'reader', emailAddress: shareWith.email });
      }
      return first;
    };

    const bobFolder = fill(bob, 'bob');
    const baseline = await timed(() => list(`'${bobFolder}' in parents and trashed = false`, PER_FOLDER));
    const started = performance.now();
    const aliceFolder = fill(alice, 'alice', bob);
    const fillSeconds = (performance.now() - started) / 1000;
    const ownWithShares = await timed(() => list(`'${bobFolder}' in parents and trashed = false`, PER_FOLDER));
    const sharedFolder = await timed(() => list(`'${aliceFolder}' in parents and trashed = false`, PER_FOLDER));
    const sharedWithMe = await timed(() => list('sharedWithMe and trashed = false', PER_FOLDER));
    const team = drives.insert(alice, 'bench-team', { name: 'Bench team' });
    drives.setMember(alice, team.id, { id: bob.id, type: 'user', emailAddress: bob.email, role: 'writer' });
    const driveFolder = fill(alice, 'team', undefined, team.id);
    const inDrive = await timed(() => list(`'${driveFolder}' in parents and trashed = false`, PER_FOLDER, '&includeItemsFromAllDrives=true&supportsAllDrives=true'));

    const row = (label: string, figures: { p50: number; p95: number }): string => `${label.padEnd(62)} | ${ms(figures.p50).padEnd(9)} | ${ms(figures.p95).padEnd(9)} | ${(figures.p50 / baseline.p50).toFixed(2)}×`;
    console.log(`drive sharing: folder listings for bob over HTTP (memory store, ${FILES} own files; ${SAMPLES} samples)`);
    console.log(`${'listing'.padEnd(62)} | p50       | p95       | p50 vs baseline`);
    console.log(row('baseline: his own 100-file folder, nothing shared', baseline));
    console.log(`(then ${FILES} of alice's files shared with bob one by one, in ${fillSeconds.toFixed(1)} s)`);
    console.log(row(`his own 100-file folder, ${FILES} files shared with him`, ownWithShares));
    console.log(row("alice's 100-file folder, seen through per-file grants", sharedFolder));
    console.log(row(`sharedWithMe, first page of 100 (of ${FILES})`, sharedWithMe));
    console.log(row(`a 100-file folder of a shared drive (${FILES} items), as a member`, inDrive));
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
