import { dueDateInFull, dueDateOf, isOverdue, shortDueDate } from '../../../core/text/dates';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import { escapeMarkdown } from '../../../core/text/markdown';
import { nameInMessage } from '../../../core/text/names';
import { english, Translate } from '../../../shared/l10n';
import { formatDateTime, formatDay, writeTimestamp as moment } from '../../../core/text/clock';

/** How a moment reads: core/text/clock.ts's DeskClock in the extension; UTC where none is given (tests). */
export type WriteMoment = (ms: number) => string;
const utcMoment: WriteMoment = (ms) => formatDateTime(ms, 'UTC');
/** How a day reads ("Fri 27 Nov"): the DeskClock's `day` in the extension; UTC where none is given (tests). */
const utcDay: WriteMoment = (ms) => formatDay(ms, 'UTC');

/**
 * Words and markdown for task rows, kept out of the tree provider so they are unit-tested. User text goes
 * through `escapeMarkdown`: a title like "*urgent* [x](command:...)" must show as typed, never as a link. Desk's
 * own words go through `t` (vscode.l10n.t from the tree and commands).
 */

export function taskLabel(task: Task, t: Translate = english): string {
  return task.title.trim() === '' ? t('(untitled task)') : task.title;
}

/**
 * The row's description: the due date first and short ("tomorrow", "Fri", "27 Nov"), so the default side-bar width
 * shows it whole, then "overdue" for an open task past it.
 */
export function taskDescription(task: Task, today: Date, t: Translate = english, locale?: string): string | undefined {
  const due = dueDateOf(task.due);
  if (!due) return undefined;
  const words = shortDueDate(due, today, t, locale);
  if (task.status !== 'completed' && isOverdue(due, today)) return t('{0} · overdue', words);
  return words;
}

/**
 * A task's notes as markdown (bold, lists, links to web pages render), but nothing that could act: no HTML, and a
 * `command:` link shows as text. Line breaks stay line breaks, as in Google Tasks.
 */
export function notesMarkdown(notes: string): string {
  return escapeCommandDefinitions(notes.replace(/\]\(\s*(?:<\s*)?command:/gi, '\\]\\(command:'))
    .replace(/</g, '\\<')
    .split('\n')
    .map((line) => `${line}  `)
    .join('\n');
}

/** A `[label]: command:` line begins where a line does, after spaces or tabs. */
const DEFINITION_OPENER = /^[^\S\n\r\u2028\u2029]*\[/gm;
const COMMAND_TARGET = /\s*(?:<\s*)?command:/iy;

/**
 * The notes with each `[label]: command:` link definition's brackets escaped: what
 * replace(/^(\s*)\[([^\]\n]*)\]:(\s*<?\s*command:)/gim, '$1\\[$2\\]:$3') gives, in linear time. That form rescanned
 * the spaces after `]:` once per space (100 KB of them took 6.6 s), the line breaks after every line start, and a
 * label from every `\r` inside it; here each `]` that ends labels and each `]:` is looked at once.
 */
function escapeCommandDefinitions(notes: string): string {
  const kept: string[] = [];
  let copiedUpTo = 0;
  // The first `]` or line feed after the last label opened (a label cannot hold either), and what follows it.
  let labelEnd = -1;
  let labelEndIsCommand = false;
  DEFINITION_OPENER.lastIndex = 0;
  while (DEFINITION_OPENER.exec(notes)) {
    const open = DEFINITION_OPENER.lastIndex - 1;
    if (labelEnd <= open) {
      labelEnd = open + 1;
      while (labelEnd < notes.length && notes[labelEnd] !== ']' && notes[labelEnd] !== '\n') labelEnd++;
      COMMAND_TARGET.lastIndex = labelEnd + 2;
      labelEndIsCommand = notes.startsWith(']:', labelEnd) && COMMAND_TARGET.test(notes);
    }
    if (!labelEndIsCommand) continue;
    kept.push(notes.slice(copiedUpTo, open), '\\[', notes.slice(open + 1, labelEnd), '\\]');
    copiedUpTo = labelEnd + 1;
    DEFINITION_OPENER.lastIndex = COMMAND_TARGET.lastIndex;
  }
  kept.push(notes.slice(copiedUpTo));
  return kept.join('');
}

/** The hover of a task: title, status, due date and notes. */
export function taskTooltip(task: Task, listTitle: string, today: Date, t: Translate = english, day: WriteMoment = utcDay, locale?: string): string {
  const lines = [`**${escapeMarkdown(taskLabel(task, t))}**`, ''];
  const status = task.status === 'completed'
    ? (task.completed ? t('Completed {0}', escapeMarkdown(moment(task.completed, day))) : t('Completed'))
    : t('Open');
  lines.push(t('{0} · in {1}', status, escapeMarkdown(listTitle)));
  const due = dueDateOf(task.due);
  if (due) lines.push('', t('Due {0}', dueDateInFull(due, today, t, locale)));
  if (task.notes?.trim()) lines.push('', '---', '', notesMarkdown(task.notes));
  return lines.join('\n');
}

export function listTooltip(list: TaskList, openCount: number | undefined, t: Translate = english, day: WriteMoment = utcDay): string {
  const lines = [`**${escapeMarkdown(list.title || t('(untitled list)'))}**`];
  if (openCount !== undefined) lines.push('', openCount === 1 ? t('1 open task') : t('{0} open tasks', openCount));
  if (list.updated) lines.push('', t('Updated {0}', escapeMarkdown(moment(list.updated, day))));
  return lines.join('\n');
}

/** The Rename Task List prompt: the name and when the list last changed, as a day ("Fri 27 Nov"). */
export function renameListPrompt(list: TaskList, t: Translate = english, day: WriteMoment = utcDay): string {
  return t('New name of "{0}" (last changed {1})', nameInMessage(list.title), moment(list.updated, day));
}

/** A read-only details page for "Open Task Details"; a subtask names its parent by `parentTitle` (its id means nothing to a reader). */
export function taskDetailsMarkdown(task: Task, listTitle: string, today: Date, t: Translate = english, when: WriteMoment = utcMoment, locale?: string, parentTitle?: string): string {
  const lines = [`# ${escapeMarkdown(taskLabel(task, t))}`, ''];
  const due = dueDateOf(task.due);
  const rows: Array<[string, string]> = [
    [t('List'), escapeMarkdown(listTitle)],
    [t('Status'), task.status === 'completed' ? t('Completed') : t('Open')],
    [t('Due'), due ? dueDateInFull(due, today, t, locale) : '—'],
    [t('Completed'), task.completed ? escapeMarkdown(moment(task.completed, when)) : '—'],
    [t('Updated'), escapeMarkdown(moment(task.updated, when))],
    [t('Subtask of'), task.parent ? (parentTitle !== undefined ? escapeMarkdown(parentTitle) : t('another task of the list')) : '—'],
  ];
  lines.push(`| ${t('Field')} | ${t('Value')} |`, '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value} |`), '');
  lines.push(`## ${t('Notes')}`, '', task.notes?.trim() ? task.notes.split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n') : `_${t('No notes.')}_`, '');
  if (task.webViewLink) lines.push(`[${t('Open in Google Tasks')}](${task.webViewLink.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`, '');
  return lines.join('\n');
}
