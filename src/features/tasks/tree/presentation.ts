import { describeDueDate, dueDateOf, isOverdue } from '../../../core/dates';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import { escapeMarkdown } from '../../../core/markdown';

/**
 * Words and markdown for task rows, kept out of the tree provider so they are unit-tested. User text goes
 * through `escapeMarkdown`: a title like "*urgent* [x](command:...)" must show as typed, never as a link.
 */

export function taskLabel(task: Task): string {
  return task.title.trim() === '' ? '(untitled task)' : task.title;
}

/** The row's description: the due date in words, flagged when an open task is overdue. */
export function taskDescription(task: Task, today: Date): string | undefined {
  const due = dueDateOf(task.due);
  if (!due) return undefined;
  const words = describeDueDate(due, today);
  if (task.status !== 'completed' && isOverdue(due, today)) return `overdue · ${words}`;
  return `due ${words}`;
}

/** The hover of a task: title, status, due date and notes. */
export function taskTooltip(task: Task, listTitle: string, today: Date): string {
  const lines = [`**${escapeMarkdown(taskLabel(task))}**`, ''];
  const status = task.status === 'completed'
    ? `Completed${task.completed ? ` ${task.completed.slice(0, 10)}` : ''}`
    : 'Open';
  lines.push(`${status} · in ${escapeMarkdown(listTitle)}`);
  const due = dueDateOf(task.due);
  if (due) lines.push('', `Due ${describeDueDate(due, today)}${due === describeDueDate(due, today) ? '' : ` (${due})`}`);
  if (task.notes?.trim()) lines.push('', '---', '', ...task.notes.split('\n').map((line) => `${escapeMarkdown(line)}  `));
  return lines.join('\n');
}

export function listTooltip(list: TaskList, openCount: number | undefined): string {
  const lines = [`**${escapeMarkdown(list.title || '(untitled list)')}**`];
  if (openCount !== undefined) lines.push('', `${openCount} open task${openCount === 1 ? '' : 's'}`);
  if (list.updated) lines.push('', `Updated ${list.updated.slice(0, 10)}`);
  return lines.join('\n');
}

/** A read-only details page for "Open Task Details". */
export function taskDetailsMarkdown(task: Task, listTitle: string, today: Date): string {
  const lines = [`# ${escapeMarkdown(taskLabel(task))}`, ''];
  const due = dueDateOf(task.due);
  const rows: Array<[string, string]> = [
    ['List', escapeMarkdown(listTitle)],
    ['Status', task.status === 'completed' ? 'Completed' : 'Open'],
    ['Due', due ? (describeDueDate(due, today) === due ? due : `${due} (${describeDueDate(due, today)})`) : '—'],
    ['Completed', task.completed ? escapeMarkdown(task.completed) : '—'],
    ['Updated', escapeMarkdown(task.updated)],
    ['Subtask of', task.parent ? escapeMarkdown(task.parent) : '—'],
  ];
  lines.push('| Field | Value |', '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value} |`), '');
  lines.push('## Notes', '', task.notes?.trim() ? task.notes.split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n') : '_No notes._', '');
  if (task.webViewLink) lines.push(`[Open in Google Tasks](${task.webViewLink.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`, '');
  return lines.join('\n');
}
