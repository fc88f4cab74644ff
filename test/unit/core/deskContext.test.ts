import * as path from 'node:path';
import * as os from 'node:os';
import { MapMemento } from '../../support/memento';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { CancelledError, GoogleApiError } from '../../../src/api/errors';
import type { DeskAuthenticationProvider } from '../../../src/auth/provider';
import { NotSignedInError } from '../../../src/auth/provider';
import type { Backend } from '../../../src/core/backend/backend';
import { createDeskContext } from '../../../src/core/deskContext';
import type { DeskSession } from '../../../src/core/accounts/session';

/** The notification calls and log lines of a DeskContext built on fakes. */
function deskWithFakes(answer: string | undefined): { desk: ReturnType<typeof createDeskContext>; shown: string[][]; logged: string[] } {
  const shown: string[][] = [];
  const logged: string[] = [];
  const vs = {
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_match, index: string) => String(args[Number(index)])) },
    window: {
      showErrorMessage: async (message: string, ...actions: string[]) => {
        shown.push([message, ...actions]);
        return answer;
      },
    },
    workspace: { getConfiguration: () => ({ get: () => undefined }) },
  } as unknown as typeof vscode;
  const log = { error: (line: string) => logged.push(line) } as unknown as vscode.LogOutputChannel;
  const context = { subscriptions: [] } as unknown as vscode.ExtensionContext;
  const desk = createDeskContext(vs, context, {} as unknown as Backend, {} as unknown as DeskAuthenticationProvider, {} as unknown as DeskSession, log);
  return { desk, shown, logged };
}

describe('DeskContext error reporting', () => {
  it('turns a Google error into one clear sentence with what Desk was doing, and logs it', async () => {
    const { desk, shown, logged } = deskWithFakes(undefined);
    await desk.showError(new GoogleApiError(404, 'Task list not found.', 'notFound', [], undefined), { action: 'Could not rename the list' });
    assert.deepEqual(shown, [['Could not rename the list. Not found: Task list not found.']]);
    assert.deepEqual(logged, ['Could not rename the list. Not found: Task list not found.']);
  });

  it('offers Retry when given one, and runs it when chosen', async () => {
    const { desk, shown } = deskWithFakes('Retry');
    let retried = 0;
    await desk.showError(new Error('socket hang up'), { retry: () => { retried++; } });
    assert.deepEqual(shown, [['socket hang up', 'Retry']]);
    assert.equal(retried, 1);
  });

  it('stays quiet for a cancelled request and explains a missing sign-in', async () => {
    const { desk, shown } = deskWithFakes(undefined);
    await desk.showError(new CancelledError());
    // Typed: an untyped [] would narrow shown to an empty tuple, which the next showError fills.
    assert.deepEqual(shown, [] as string[][]);
    await desk.showError(new NotSignedInError());
    assert.match(shown.at(0)?.[0] ?? '', /Sign In/);
  });
});

describe('DeskContext HTTP clients', () => {
  it('makes a feature\'s client without loading the HTTP bundle (core/backend/network), which the first request loads', async () => {
    const networkModule = require.resolve('../../../src/core/backend/network');
    Reflect.deleteProperty(require.cache, networkModule);
    const vs = { l10n: { t: (message: string) => message } } as unknown as typeof vscode;
    const none = (): { dispose(): void } => ({ dispose: () => undefined });
    const backend = { ensure: async () => undefined, current: { tasks: 'http://127.0.0.1:9/tasks' }, onDidChange: none } as unknown as Backend;
    const session = { tokenSource: () => async () => 'token', account: async () => undefined } as unknown as DeskSession;
    // The first client also builds the one notion of offline it reports to (sessions and backend watched, the queue's storage).
    const auth = { onDidChangeSessions: none } as unknown as DeskAuthenticationProvider;
    // The offline queue's file lives in the global storage folder (created on its first write only).
    const extensionContext = { subscriptions: [], globalState: new MapMemento(), globalStorageUri: { fsPath: path.join(os.tmpdir(), `desk-context-test-${process.pid}`) } } as unknown as vscode.ExtensionContext;
    const desk = createDeskContext(vs, extensionContext, backend, auth, session, { info: () => undefined, warn: () => undefined } as unknown as vscode.LogOutputChannel);
    const sent: string[] = [];
    const client = desk.httpClient((endpoints) => (endpoints as unknown as { tasks: string }).tasks, undefined, (request) => sent.push(request.path));
    assert.equal(require.cache[networkModule], undefined, 'a feature loading at activation makes its clients: the HTTP bundle must wait');
    assert.equal(client.maxAttempts, 5, 'the client answers as an HttpClient once used');
    assert.notEqual(require.cache[networkModule], undefined, 'its first use loads the HTTP bundle');
    await assert.rejects(client.empty({ method: 'DELETE', path: '/lists/x', operation: 'tasks.delete', signal: AbortSignal.abort() }));
    assert.deepEqual(sent, ['/lists/x'], 'the request went through the real client');
  });
});

