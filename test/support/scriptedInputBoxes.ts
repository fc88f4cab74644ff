/** Input boxes that play what a user does in a dialog (type, accept or press Escape), for the tests of dialogs that keep drafts. */
import type * as vscode from 'vscode';

/** One box as it opened: its prompt and the text it started with. */
export interface Step { prompt: string; value: string }
/** What the user does in one box: type `type` (undefined: leave it as it is), then accept or press Escape. */
export interface Action { type?: string; escape?: boolean }

/** A `showInputBox` that plays the actions given to `play`, in order, and records each box in `steps`. */
export function scriptedInputBoxes() {
  const steps: Step[] = [];
  let actions: Action[] = [];
  const showInputBox = async (options: vscode.InputBoxOptions): Promise<string | undefined> => {
    steps.push({ prompt: options.prompt ?? '', value: options.value ?? '' });
    const action = actions.shift() ?? {};
    const text = action.type ?? options.value ?? '';
    // VS Code validates the box's text as it changes.
    await options.validateInput?.(text);
    return action.escape ? undefined : text;
  };
  /** The next run's actions; `steps` starts empty again. */
  const play = (next: Action[]): void => {
    actions = next;
    steps.length = 0;
  };
  return { showInputBox, steps, play };
}
