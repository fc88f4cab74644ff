// The Explorer's Drive folders listed again after a sign-in or a backend switch: VS Code's refresh command also opens
// the Explorer, so the side bar goes back to Desk when Desk was on screen (the sign-in was started there).
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { DriveFolderAvailability } from '../../../../../src/features/drive/explorer/availability';
import { FakeEventEmitter } from '../../../../support/fakeVscode';

function availability(deskShown: boolean) {
  const executed: string[] = [];
  const signedIn = new FakeEventEmitter<boolean>();
  const backend = new FakeEventEmitter<unknown>();
  const vs = {
    l10n: { t: (message: string) => message },
    workspace: { workspaceFolders: [{ uri: { scheme: 'desk-drive' } }] },
    window: { showWarningMessage: async () => undefined },
    commands: { executeCommand: async (id: string) => void executed.push(id) },
  } as unknown as typeof vscode;
  const subject = new DriveFolderAvailability(vs, { onDidChangeSignedIn: signedIn.event, onDidChangeBackend: backend.event, deskShown: () => deskShown });
  return { subject, executed, signedIn, backend };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Drive folders in the Explorer: back after a sign-in', () => {
  it('lists the failed folders again and leaves the side bar on Desk', async () => {
    const { subject, executed, signedIn } = availability(true);
    subject.report('signedOut', 'not signed in');
    signedIn.fire(true);
    await settle();
    assert.deepEqual(executed, ['workbench.files.action.refreshFilesExplorer', 'workbench.view.extension.desk']);
    subject.dispose();
  });

  it('leaves the Explorer open when Desk was not on screen', async () => {
    const { subject, executed, backend } = availability(false);
    subject.report('unreachable', 'offline');
    backend.fire(undefined);
    await settle();
    assert.deepEqual(executed, ['workbench.files.action.refreshFilesExplorer']);
    subject.dispose();
  });
});
