/** What the Tasks commands ask the user: titles, due dates, and which list or task when run from the palette. */
import type * as vscode from 'vscode';
import { describeDay, DUE_INPUT_HELP, parseDueInput } from '../../../core/text/dates';
import type { Draft, DraftBox } from '../../../core/ui/drafts';
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

/** What a step's box starts with: a text, or a field of a dialog's draft (its unsaved text from last time, kept as typed). */
export type StepStart = string | { readonly draft: Draft; readonly field: string };

export class TaskPrompts {
  constructor(private readonly vs: typeof vscode, private readonly tree: Pick<TasksTreeProvider, 'taskLists' | 'allTasks'>, private readonly today: () => Date = () => new Date()) {}

  t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  /** A task's or list's title, trimmed; undefined when cancelled or empty. */
  async askTitle(title: string, prompt: string, start: StepStart): Promise<string | undefined> {
    const answer = await this.input(title, prompt, start, (text) => (text.trim() === '' ? this.t('A title is required.') : text.length > 1024 ? this.t('At most 1024 characters.') : undefined));
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
  async askNotes(title: string, start: StepStart): Promise<{ notes: string; inEditor: boolean } | undefined> {
    const value = typeof start === 'string' ? start : start.draft.value(start.field);
    if (value.includes('\n')) {
      const lines = value.split('\n').length;
      const choice = await this.pick([
        { label: `$(go-to-file) ${this.t('Edit the notes in an editor')}`, description: this.t('{0} lines, as markdown; saved when you save the document', lines), value: true },
        { label: `$(check) ${this.t('Keep the notes as they are')}`, value: false },
      ], this.t('{0}: the notes have several lines', title));
      return choice === undefined ? undefined : { notes: value, inEditor: choice };
    }
    const notes = await this.input(title, this.t('Notes on one line (leave empty for none). For several lines, use Edit Notes (the notes icon on the task\'s row).'), start, () => undefined);
    return notes === undefined ? undefined : { notes, inEditor: false };
  }

  /** Returns the date (YYYY-MM-DD), null for "no due date", undefined when cancelled. */
  async askDue(title: string, start: StepStart): Promise<string | null | undefined> {
    const answer = await this.input(title, this.t(DUE_INPUT_HELP), start, (text): string | vscode.InputBoxValidationMessage | undefined => {
      const parsed = parseDueInput(text, this.today(), this.vs.l10n.t);
      if (parsed.kind === 'invalid') return parsed.message;
      // What "fri" resolves to, seen before confirming.
      const message = parsed.kind === 'date' ? this.t('Due {0}', describeDay(parsed.date, this.vs.env.language)) : this.t('No due date');
      return { message, severity: this.vs.InputBoxValidationSeverity.Info };
    });
    if (answer === undefined) return undefined;
    const parsed = parseDueInput(answer, this.today(), this.vs.l10n.t);
    if (parsed.kind === 'invalid') {
      void this.vs.window.showWarningMessage(parsed.message);
      return undefined;
    }
    return parsed.kind === 'date' ? parsed.date : null;
  }

  /** One input box; a draft's step starts with the unsaved text of last time (its prompt saying so) and keeps what is typed. */
  private async input(title: string, prompt: string, start: StepStart, validate: (text: string) => string | vscode.InputBoxValidationMessage | undefined): Promise<string | undefined> {
    const show = (box: DraftBox<string | vscode.InputBoxValidationMessage>) => this.vs.window.showInputBox({ title, ignoreFocusOut: true, ...box });
    return typeof start === 'string' ? show({ prompt, value: start, validateInput: validate }) : start.draft.ask(start.field, prompt, this.vs.l10n.t, show, validate);
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
        description: taskDescription(entry.task, this.today(), this.vs.l10n.t, this.vs.env.language) ?? '',
        value: entry.task,
      })),
      placeHolder,
    );
    return task ? { listId: list.id, listTitle: list.title, task } : undefined;
  }
}
