/** What the Tasks commands ask the user: titles, due dates, and which list or task when run from the palette. */
import type * as vscode from 'vscode';
import { describeDay, DUE_INPUT_HELP, parseDueInput } from '../../../core/dates';
import { unsavedPrompt } from '../../../core/drafts';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import { flattenTree } from '../tree/model';
import type { TasksNode } from '../tree/nodes';
import { taskDescription, taskLabel } from '../tree/presentation';
import type { TasksTreeProvider } from '../tree/treeProvider';

/** A task as the commands address it (a tree row, or what the user picked in the palette). */
export interface TaskTarget {
  readonly listId: string;
  readonly listTitle: string;
  readonly task: Task;
}

export class TaskPrompts {
  constructor(private readonly vs: typeof vscode, private readonly tree: Pick<TasksTreeProvider, 'taskLists' | 'allTasks'>) {}

  t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  /** `typed` hears the box's text as it changes (a dialog's draft keeps it when the user presses Escape). */
  async askTitle(title: string, prompt: string, value: string, typed?: (text: string) => void): Promise<string | undefined> {
    const answer = await this.vs.window.showInputBox({
      title,
      prompt,
      value,
      ignoreFocusOut: true,
      validateInput: (text) => {
        typed?.(text);
        return text.trim() === '' ? this.t('A title is required.') : text.length > 1024 ? this.t('At most 1024 characters.') : undefined;
      },
    });
    // The input box refuses empty titles, but a stubbed or programmatic answer must be checked too.
    if (answer === undefined) return undefined;
    if (answer.trim() === '') {
      void this.vs.window.showWarningMessage(this.t('A title is required: nothing was changed.'));
      return undefined;
    }
    return answer.trim();
  }

  /**
   * The notes step of Edit Task. One-line notes are typed in the input box; notes of several lines would be
   * flattened there, so the step offers the notes editor instead (or keeping them as they are). Undefined when
   * cancelled; `inEditor` asks the caller to open the notes document once the rest is saved.
   */
  async askNotes(title: string, value: string, typed?: (text: string) => void, unsaved = false): Promise<{ notes: string; inEditor: boolean } | undefined> {
    if (value.includes('\n')) {
      const lines = value.split('\n').length;
      const choice = await this.pick([
        { label: `$(go-to-file) ${this.t('Edit the notes in an editor')}`, description: this.t('{0} lines, as markdown; saved when you save the document', lines), value: true },
        { label: `$(check) ${this.t('Keep the notes as they are')}`, value: false },
      ], this.t('{0}: the notes have several lines', title));
      return choice === undefined ? undefined : { notes: value, inEditor: choice };
    }
    const prompt = this.t('Notes on one line (leave empty for none). For several lines, use Edit Notes (the notes icon on the task\'s row).');
    const notes = await this.vs.window.showInputBox({
      title,
      prompt: unsaved ? unsavedPrompt(prompt, this.vs.l10n.t) : prompt,
      value,
      ignoreFocusOut: true,
      validateInput: (text) => {
        typed?.(text);
        return undefined;
      },
    });
    return notes === undefined ? undefined : { notes, inEditor: false };
  }

  /** Returns the date (YYYY-MM-DD), null for "no due date", undefined when cancelled. */
  async askDue(title: string, value: string, typed?: (text: string) => void, unsaved = false): Promise<string | null | undefined> {
    const validate = (text: string): string | vscode.InputBoxValidationMessage | undefined => {
      typed?.(text);
      const parsed = parseDueInput(text, new Date(), this.vs.l10n.t);
      if (parsed.kind === 'invalid') return parsed.message;
      // What "fri" resolves to, seen before confirming.
      const message = parsed.kind === 'date' ? this.t('Due {0}', describeDay(parsed.date, this.vs.env.language)) : this.t('No due date');
      return { message, severity: this.vs.InputBoxValidationSeverity.Info };
    };
    const prompt = unsaved ? unsavedPrompt(this.t(DUE_INPUT_HELP), this.vs.l10n.t) : this.t(DUE_INPUT_HELP);
    const answer = await this.vs.window.showInputBox({ title, prompt, value, ignoreFocusOut: true, validateInput: validate });
    if (answer === undefined) return undefined;
    const parsed = parseDueInput(answer, new Date(), this.vs.l10n.t);
    if (parsed.kind === 'invalid') {
      void this.vs.window.showWarningMessage(parsed.message);
      return undefined;
    }
    return parsed.kind === 'date' ? parsed.date : null;
  }

  async pick<T>(items: Array<{ label: string; description?: string; value: T }>, placeHolder: string): Promise<T | undefined> {
    const picked = await this.vs.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true, matchOnDescription: true });
    return picked?.value;
  }

  async resolveList(node: TasksNode | undefined, placeHolder: string): Promise<TaskList | undefined> {
    if (node?.kind === 'list') return node.list;
    if (node?.kind === 'task') return node.list.list;
    if (node?.kind === 'message' && node.parent) return node.parent.list;
    const lists = await this.tree.taskLists();
    return this.pick(lists.map((list) => ({ label: list.title, value: list })), placeHolder);
  }

  async resolveTask(node: TasksNode | undefined, placeHolder: string, filter: (task: Task) => boolean = () => true): Promise<TaskTarget | undefined> {
    if (node?.kind === 'task') return { listId: node.listId, listTitle: node.list.list.title, task: node.task };
    const list = await this.resolveList(node, this.t('Which list?'));
    if (!list) return undefined;
    const entries = flattenTree(await this.tree.allTasks(list.id)).filter((entry) => filter(entry.task));
    if (entries.length === 0) {
      void this.vs.window.showInformationMessage(this.t('There is no matching task in "{0}".', list.title));
      return undefined;
    }
    const task = await this.pick(
      entries.map((entry) => ({
        label: `${'    '.repeat(entry.depth)}${entry.task.status === 'completed' ? '$(pass-filled)' : '$(circle-large-outline)'} ${taskLabel(entry.task, this.vs.l10n.t)}`,
        // The due date as the row writes it ("tomorrow", "Fri", "8 Dec · overdue"), not "2026-12-08".
        description: taskDescription(entry.task, new Date(), this.vs.l10n.t, this.vs.env.language) ?? '',
        value: entry.task,
      })),
      placeHolder,
    );
    return task ? { listId: list.id, listTitle: list.title, task } : undefined;
  }
}
