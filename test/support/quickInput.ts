// Scripting VS Code's quick inputs and notifications in the extension-host suites: replace vscode.window's dialogs
// for a test, answer input boxes and quick picks in order, confirm modals, and collect what was shown.
import * as vscode from 'vscode';

type StubbedWindowFunction = 'showInputBox' | 'showQuickPick' | 'showWarningMessage' | 'showErrorMessage' | 'showInformationMessage' | 'showOpenDialog' | 'showSaveDialog';

/** What a confirmation answers with when it should take the modal's first action, whatever its wording. */
export const FIRST_ACTION = Symbol('the first action');

/** A quick pick's item as the scripts see it. */
export type PickItem = vscode.QuickPickItem & { value?: unknown };

/** Replaces vscode.window functions for a test; `restore()` puts every original back. */
export class WindowStubs {
  private readonly restores: Array<() => void> = [];

  stub(name: StubbedWindowFunction, implementation: (...args: unknown[]) => unknown): void {
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window[name];
    window[name] = implementation;
    this.restores.push(() => {
      window[name] = original;
    });
  }

  restore(): void {
    for (const restore of this.restores.splice(0).reverse()) restore();
  }

  /** Answers input boxes in order (undefined: Escape), recording what each was opened with. */
  answerInputs(...answers: Array<string | undefined>): vscode.InputBoxOptions[] {
    const seen: vscode.InputBoxOptions[] = [];
    this.stub('showInputBox', async (options) => {
      seen.push(options as vscode.InputBoxOptions);
      return answers.shift();
    });
    return seen;
  }

  /** Answers quick picks in order: each chooser gets the items and returns the one(s) to pick, or undefined. */
  answerPicks(...choosers: Array<(items: PickItem[]) => PickItem | PickItem[] | undefined>): PickItem[][] {
    const seen: PickItem[][] = [];
    this.stub('showQuickPick', async (items) => {
      const list = (await items) as PickItem[];
      seen.push(list);
      return choosers.shift()?.(list);
    });
    return seen;
  }

  /** Answers quick picks with the item whose label matches, in order, recording the labels each offered. */
  pickByLabel(...labels: RegExp[]): string[][] {
    const offered: string[][] = [];
    this.stub('showQuickPick', async (items) => {
      const choices = (await items) as PickItem[];
      offered.push(choices.map((choice) => choice.label));
      const wanted = labels.shift();
      return wanted ? choices.find((choice) => wanted.test(choice.label)) : undefined;
    });
    return offered;
  }

  /** Answers every warning (the confirmations) with `answer` — FIRST_ACTION takes the modal's first action —, recording each message. */
  confirmWith(answer: string | undefined | typeof FIRST_ACTION): string[] {
    const asked: string[] = [];
    this.stub('showWarningMessage', async (message, _options, ...actions) => {
      asked.push(String(message));
      return answer === FIRST_ACTION ? actions[0] : answer;
    });
    return asked;
  }

  /** Records the messages of one kind of notification (and dismisses them). */
  collect(name: 'showErrorMessage' | 'showInformationMessage' | 'showWarningMessage'): string[] {
    const messages: string[] = [];
    this.stub(name, async (message) => {
      messages.push(String(message));
      return undefined;
    });
    return messages;
  }
}

/** A quick pick's chooser that takes the item whose label matches. */
export const byLabel = (pattern: RegExp) => (items: PickItem[]): PickItem | undefined => items.find((item) => pattern.test(item.label));

/** One scripted answer: a quick pick chooses the item whose label matches, an input box types the value. */
export type DialogStep = { readonly pick: RegExp } | { readonly type: string; readonly rejects?: readonly string[] };

/**
 * Answers quick picks and input boxes with `steps`, in order; once they are used up, every further question is
 * dismissed (Escape). What goes wrong inside a stub lands in `problems` (an assertion there would only become an
 * error message): the wrong kind of dialog, no matching item, an input box accepting a value in `rejects` or
 * refusing the typed one. `asked`, when given, records each question.
 */
export function scriptDialogs(stubs: WindowStubs, steps: readonly DialogStep[], problems: string[], asked?: string[]): void {
  const queue = [...steps];
  stubs.stub('showQuickPick', async (items: unknown, options: unknown) => {
    const list = (await items) as vscode.QuickPickItem[];
    const pickOptions = options as vscode.QuickPickOptions | undefined;
    asked?.push(`pick: ${pickOptions?.title ?? ''} | ${pickOptions?.placeHolder ?? ''}`);
    const step = queue.shift();
    if (!step) return undefined;
    if (!('pick' in step)) {
      problems.push(`expected an input box for "${step.type}", got a quick pick: ${list.map((item) => item.label).join(', ')}`);
      return undefined;
    }
    const found = list.find((item) => item.kind !== vscode.QuickPickItemKind.Separator && step.pick.test(item.label));
    if (!found) problems.push(`no item matching ${String(step.pick)} among ${list.map((item) => item.label).join(', ')}`);
    return found;
  });
  stubs.stub('showInputBox', async (options: unknown) => {
    const box = (options ?? {}) as vscode.InputBoxOptions;
    asked?.push(`input: ${box.prompt ?? ''}`);
    const step = queue.shift();
    if (!step) return undefined;
    if (!('type' in step)) {
      problems.push(`expected a quick pick for ${String(step.pick)}, got an input box: ${box.prompt ?? ''}`);
      return undefined;
    }
    for (const bad of step.rejects ?? []) {
      if (!(await box.validateInput?.(bad))) problems.push(`the input box "${box.prompt ?? ''}" accepted "${bad}"`);
    }
    if (await box.validateInput?.(step.type)) problems.push(`the input box "${box.prompt ?? ''}" refused "${step.type}"`);
    return step.type;
  });
}
