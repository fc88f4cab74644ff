// The Drive change feed's start after a window reload: the session is restored from storage while the features load,
// and VS Code fires no "signed in" event for it (the user did not sign in, the window already was). The feed must
// start from the session's real state, not from the "not known yet" it reads while the first lookup runs.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { DeskAuthenticationProvider } from '../../../../../src/auth/provider';
import type { Backend } from '../../../../../src/core/backend/backend';
import type { DeskContext } from '../../../../../src/core/deskContext';
import { DeskSession, SessionProvider } from '../../../../../src/core/accounts/session';
import { PushHub } from '../../../../../src/core/sync/push';
import { DriveChangeFeed } from '../../../../../src/features/drive/changes/changeFeed';
import type { ChangeSource } from '../../../../../src/features/drive/changes/poller';
import type { DriveNode } from '../../../../../src/features/drive/tree/model';
import { FakeEventEmitter } from '../../../../support/fakeVscode';
import { MapMemento } from '../../../../support/memento';

const none = (): { dispose(): void } => ({ dispose: () => undefined });

function fakeVs(): typeof vscode {
  return {
    EventEmitter: FakeEventEmitter,
    StatusBarAlignment: { Left: 1, Right: 2 },
    l10n: { t: (message: string) => message },
    commands: { registerCommand: none, executeCommand: async () => undefined },
    workspace: { getConfiguration: () => ({ get: () => undefined }), onDidChangeConfiguration: none },
    window: {
      state: { focused: true },
      createStatusBarItem: () => ({ hide: () => undefined, show: () => undefined, dispose: () => undefined }),
      onDidChangeWindowState: none,
      onDidChangeActiveTextEditor: none,
      onDidChangeTextEditorSelection: none,
    },
  } as unknown as typeof vscode;
}

/** Stored sessions that answer a little later, as the secret storage does while a reloaded window starts. */
function restoredSessions(release: Promise<void>): SessionProvider {
  const changes = new FakeEventEmitter<unknown>();
  return {
    onDidChangeSessions: changes.event,
    listSessions: async () => {
      await release;
      return [{ id: 's', accessToken: 'x', account: { id: 'alice@example.com', label: 'alice' }, scopes: [] }];
    },
  } as unknown as SessionProvider;
}

describe('Drive change feed: start after a window reload', () => {
  it('starts polling when the restored session is found after the feed loaded, with no sign-in event', async () => {
    const vs = fakeVs();
    let release = (): void => undefined;
    const session = new DeskSession(vs, restoredSessions(new Promise<void>((resolve) => { release = resolve; })));
    // Activation asks for the stored sessions; the Drive feature (loaded at once for a desk-drive workspace folder) comes first.
    const lookup = session.check();
    const source: ChangeSource = {
      startToken: async () => '1',
      listPage: async () => ({ items: [], resumeToken: '1' }),
    };
    const desk = {
      vs,
      session,
      backend: { current: { kind: 'emulator', drive: 'http://127.0.0.1:1/drive/v2' } } as unknown as Backend,
      auth: {} as unknown as DeskAuthenticationProvider,
      push: new PushHub(),
      clock: { dateTime: (ms: number) => new Date(ms).toISOString() },
      extensionContext: { globalState: new MapMemento() },
      log: { warn: () => undefined, info: () => undefined },
      showError: async () => undefined,
    } as unknown as DeskContext;
    const treeView = { onDidChangeSelection: none, onDidExpandElement: none, onDidChangeVisibility: none } as unknown as vscode.TreeView<DriveNode>;
    const feed = new DriveChangeFeed({
      desk,
      provider: { refresh: () => undefined, rerender: () => undefined },
      treeView,
      model: () => { throw new Error('no changes expected'); },
      about: async () => ({ userEmail: 'alice@example.com' }) as never,
      changeSource: () => source,
      fileChanged: () => undefined,
      revealFile: async () => undefined,
      knownModifiedDate: () => undefined,
    });
    try {
      const starting = feed.ensureStarted();
      release();
      await lookup;
      await starting;
      assert.equal(session.signedIn, true);
      assert.equal(feed.state().polling, true, 'the change feed runs for the restored session');
      assert.equal(feed.state().pollerState === 'stopped' || feed.state().pollerState === 'signedOut', false);
    } finally {
      feed.dispose();
      session.dispose();
    }
  });
});
