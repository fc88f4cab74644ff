// Shared by the extension-host suites: activate Desk, sign in through the real provider (consent completed
// programmatically against the harness's emulator), and talk to the emulator directly to check results.
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { consentBrowser } from '../support/consentBrowser';

export const EXTENSION_ID = 'desk-dev.desk';

export function emulatorUrl(): string {
  const url = process.env.DESK_TEST_EMULATOR_URL;
  assert.ok(url, 'DESK_TEST_EMULATOR_URL is not set');
  return url;
}

/** A token for an account straight from the emulator's developer endpoint, to check results independently. */
export async function emulatorToken(account = 'alice@example.com'): Promise<string> {
  const response = await fetch(`${emulatorUrl()}/emulator/v1/token?user=${encodeURIComponent(account)}`, { method: 'POST' });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/** A request to the emulator as `account` (alice by default), outside Desk. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the type of the JSON body it reads
export async function emulatorRequest<T>(method: string, path: string, body?: unknown, account?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${await emulatorToken(account)}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${emulatorUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

/** Activates Desk and signs in as `account` unless a session already exists (suites share one host). */
export async function activateAndSignIn(account = 'alice@example.com'): Promise<DeskApi> {
  const extension = vscode.extensions.getExtension<DeskApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this host`);
  const api = await extension.activate();
  if (await api.desk.session.check()) return api;
  api.setAuthUrlOpener(consentBrowser(account, (result) => {
    if (result instanceof Error) console.error(`consent failed: ${result.message}`);
  }));
  try {
    await vscode.commands.executeCommand('desk.signIn');
  } finally {
    api.setAuthUrlOpener(undefined);
  }
  assert.equal(api.desk.session.signedIn, true, 'signing in through the provider did not give a session');
  return api;
}

export { byLabel, DialogStep, FIRST_ACTION, scriptDialogs, WindowStubs } from '../support/quickInput';

/** A tree item's label as text, whether the provider gave a string or a TreeItemLabel. */
export function labelText(item: vscode.TreeItem): string {
  const label = item.label;
  return typeof label === 'string' ? label : label?.label ?? '';
}

/** An input box validator's answer that must be a plain message: its text, or a failure for anything else. */
export function messageText(answer: unknown): string {
  assert.ok(typeof answer === 'string', `a message, not ${JSON.stringify(answer)}`);
  return answer;
}

/** Polls `probe` until it gives a value (every 50 ms, up to `timeoutMs`), for results that arrive asynchronously. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Replaces a document's whole text through a workspace edit, as typing would. */
export async function replaceText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  assert.equal(await vscode.workspace.applyEdit(edit), true, 'the edit applies');
}

/** The details tab named `label` once the workbench lists it (tab groups update a moment after a panel opens). */
export async function detailsTab(label: string): Promise<vscode.Tab[]> {
  const all = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
  await eventually(`a tab "${label}" among ${all().map((tab) => tab.label).join(', ')}`, () => (all().some((tab) => tab.label === label) ? true : undefined));
  return all();
}
