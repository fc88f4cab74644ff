// "Sign in with Google" without an OAuth client: one dialog says what a client is and where the steps are, the id is
// checked for Google's form, and nothing else is said before the sign-in itself.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { clientIdProblem, readStoredClientConfig } from '../../../src/auth/clientConfig';
import { GOOGLE_SETUP_HEADING, setUpGoogleClient } from '../../../src/core/accounts/deskCommands';
import type { DeskContext } from '../../../src/core/deskContext';
import { FakeSecretStorage } from '../../support/fakeVscode';
import { scriptedInputBoxes } from '../../support/scriptedInputBoxes';

interface Shown { message: string; modal: boolean; detail: string; buttons: string[] }

function setup(answer: string | undefined) {
  const secrets = new FakeSecretStorage();
  const shown: Shown[] = [];
  const problems: (string | undefined)[] = [];
  const boxes = scriptedInputBoxes();
  const opened: { path: string; line: number }[] = [];
  const readme = ['# Desk', '', 'text', GOOGLE_SETUP_HEADING, '', 'steps'].join('\n');
  const vs = {
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_match, index: string) => String(args[Number(index)])) },
    Uri: { joinPath: (base: { path: string }, ...parts: string[]) => ({ path: [base.path, ...parts].join('/') }) },
    Range: class { constructor(readonly startLine: number, readonly startCharacter: number, readonly endLine: number, readonly endCharacter: number) {} },
    TextEditorRevealType: { AtTop: 3 },
    workspace: { openTextDocument: async (uri: { path: string }) => ({ uri, getText: () => readme }) },
    window: {
      showInformationMessage: async (message: string, options: { modal?: boolean; detail?: string } | string, ...buttons: string[]) => {
        if (typeof options === 'string') buttons.unshift(options);
        const modal = typeof options === 'object' && options.modal === true;
        const detail = typeof options === 'object' ? options.detail ?? '' : '';
        shown.push({ message, modal, detail, buttons });
        return modal ? answer : undefined;
      },
      showInputBox: async (options: vscode.InputBoxOptions) => {
        const value = await boxes.showInputBox({ ...options, validateInput: async (text) => {
          const problem = await options.validateInput?.(text);
          problems.push(typeof problem === 'string' ? problem : undefined);
          return problem;
        } });
        return value;
      },
      showTextDocument: async (document: { uri: { path: string } }, options: { selection: { startLine: number } }) => {
        opened.push({ path: document.uri.path, line: options.selection.startLine });
        return { revealRange: () => undefined };
      },
    },
  } as unknown as typeof vscode;
  const desk = { vs, extensionContext: { secrets, extensionUri: { path: '/ext' } } } as unknown as Pick<DeskContext, 'vs' | 'extensionContext'>;
  return { desk, secrets, shown, problems, boxes, opened };
}

describe('Google sign-in without an OAuth client', () => {
  it('checks the client id for the form Google gives it', () => {
    assert.match(clientIdProblem('not-a-client-id') ?? '', /not a Google OAuth client ID/);
    assert.match(clientIdProblem('  ') ?? '', /ends in \.apps\.googleusercontent\.com/);
    assert.match(clientIdProblem('123-abc.apps.googleusercontent.com.evil.example') ?? '', /not a Google OAuth client ID/);
    assert.equal(clientIdProblem('123456789012-abc123def456.apps.googleusercontent.com'), undefined);
    assert.equal(clientIdProblem(' 407408718192.apps.googleusercontent.com '), undefined, 'older ids have no key; spaces around are trimmed');
  });

  it('first says what a client is, in one dialog, then takes a well-formed id and says nothing more', async () => {
    const { desk, secrets, shown, problems, boxes } = setup('Enter Client ID…');
    boxes.play([{ type: 'not-a-client-id' }, { type: 's3cret' }]);
    // The scripted box accepts what was typed; VS Code would not let a box with a problem be accepted, and Desk checks again.
    assert.equal(await setUpGoogleClient(desk), false, 'a malformed id is not saved');
    assert.match(problems[0] ?? '', /not a Google OAuth client ID/);
    assert.equal(await readStoredClientConfig(secrets), undefined);

    boxes.play([{ type: '123456789012-abc.apps.googleusercontent.com' }, { type: 's3cret' }]);
    assert.equal(await setUpGoogleClient(desk), true);
    assert.deepEqual(await readStoredClientConfig(secrets), { clientId: '123456789012-abc.apps.googleusercontent.com', clientSecret: 's3cret' });
    assert.equal(shown.length, 2, 'one dialog per attempt, no "saved, run Sign In" notice before the sign-in');
    const dialog = shown.at(0);
    assert.ok(dialog?.modal);
    assert.match(dialog.detail, /OAuth client is how Google knows which app/);
    assert.match(dialog.detail, /Using your Google account/);
    assert.deepEqual(dialog.buttons, ['Enter Client ID…', 'Show the Set-up Steps']);
  });

  it('opens the manual at its Google set-up steps, and asks for nothing else', async () => {
    const { desk, shown, boxes, opened } = setup('Show the Set-up Steps');
    assert.equal(await setUpGoogleClient(desk), false);
    assert.deepEqual(opened, [{ path: '/ext/docs/manual.md', line: 3 }]);
    assert.equal(boxes.steps.length, 0);
    assert.equal(shown.length, 1);
  });

  it('stops quietly when the dialog is cancelled', async () => {
    const { desk, shown, boxes } = setup(undefined);
    assert.equal(await setUpGoogleClient(desk), false);
    assert.equal(boxes.steps.length, 0);
    assert.equal(shown.length, 1);
  });
});
