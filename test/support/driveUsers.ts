/**
 * The set-up the Drive sharing and shared-drive suites share: an emulator for the suite (started before, closed after)
 * with a token per demo user, HTTP calls made as one of them, and the official Drive v2 client signed in as each.
 */
import * as assert from 'node:assert/strict';
import { drive, drive_v2 } from '@googleapis/drive';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { DriveFile, driveFileSchema } from '../../src/shared/schemas/drive';
import { EmulatorCall, emulatorHttp, HttpAnswer, HttpCallOptions } from './emulatorHttp';
import { officialClientOptions } from './officialClient';

export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';
export const CAROL = 'carol@example.com';

/** Plain functions (no `this`): the suites take them apart (`const { call, ok } = driveUsers()`). */
export interface DriveUsers {
  /** A request as `as` (one of the demo users). */
  readonly call: (as: string, method: string, path: string, options?: HttpCallOptions) => Promise<HttpAnswer>;
  /** The same, asserting a 2xx answer (the failure names the user, the request and the answer). */
  readonly ok: (as: string, method: string, path: string, options?: HttpCallOptions) => Promise<HttpAnswer>;
  /** An answer's body as a Drive file. */
  readonly fileOf: (answer: { json: unknown }) => DriveFile;
}

/** Registers the suite's hooks (call it inside `describe`): one emulator, a token for alice, bob and carol. */
export function driveUsers(): DriveUsers {
  let emulator: RunningEmulator;
  let raw: EmulatorCall;
  const tokens = new Map<string, string>();
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    for (const email of [ALICE, BOB, CAROL]) tokens.set(email, emulator.tokenFor(email).accessToken);
    raw = emulatorHttp(emulator, () => tokens.get(ALICE) as string);
  });
  after(() => emulator.close());

  const call = (as: string, method: string, path: string, options: HttpCallOptions = {}): Promise<HttpAnswer> => raw(method, path, { ...options, token: tokens.get(as) as string });
  return {
    call,
    ok: async (as, method, path, options = {}) => {
      const answer = await call(as, method, path, options);
      assert.ok(answer.status >= 200 && answer.status < 300, `${as} ${method} ${path} → ${answer.status} ${answer.text}`);
      return answer;
    },
    fileOf: (answer) => driveFileSchema.parse(answer.json),
  };
}

/** The official Drive v2 client as each demo user, against an emulator for the suite (call it inside `describe`). */
export function officialDriveUsers(): { readonly alice: drive_v2.Drive; readonly bob: drive_v2.Drive; readonly carol: drive_v2.Drive } {
  let emulator: RunningEmulator;
  const clients = new Map<string, drive_v2.Drive>();
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    for (const email of [ALICE, BOB, CAROL]) clients.set(email, drive({ version: 'v2', ...officialClientOptions(emulator, email) }));
  });
  after(() => emulator.close());
  const client = (email: string): drive_v2.Drive => clients.get(email) as drive_v2.Drive;
  return {
    get alice() { return client(ALICE); },
    get bob() { return client(BOB); },
    get carol() { return client(CAROL); },
  };
}
