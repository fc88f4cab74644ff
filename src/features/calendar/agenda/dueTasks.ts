/**
 * Due tasks in the Agenda, without vscode: which tasks show on which day (their due date, a date with no time; open
 * overdue tasks on Today, as Google Calendar shows them), how a day's rows are ordered (all-day events, then tasks,
 * then timed events), and what a day's count says. The tree provider only renders this.
 */
import { dueDateOf } from '../../../core/text/dates';
import { english, Translate } from '../../../shared/l10n';
import type { Task } from '../../../shared/schemas/tasks';
import { addDays, dateKey } from '../time';
import type { AgendaWindow, DayGroup, Occurrence } from '../tree/model';

/** A task with a due date and the list it is in. */
export interface DueTask {
  readonly listId: string;
  readonly listTitle: string;
  readonly task: Task;
}

/** One day of the Agenda with the tasks due on it. */
export interface AgendaDay extends DayGroup {
  readonly tasks: readonly DueTask[];
}

export function isCompleted(dueTask: DueTask): boolean {
  return dueTask.task.status === 'completed';
}

/** Whether an open task was due before `todayKey` (shown on Today, marked overdue). */
export function isOverdueTask(dueTask: DueTask, todayKey: string): boolean {
  const due = dueDateOf(dueTask.task.due);
  return due !== undefined && due < todayKey && !isCompleted(dueTask);
}

/**
 * The Agenda's days with their due tasks: each task on its due date within the window, open overdue ones on Today,
 * completed ones only when `showCompleted`. Days that have only tasks get a group of their own; days stay in date order.
 */
export function withDueTasks(days: readonly DayGroup[], tasks: readonly DueTask[], window: AgendaWindow, showCompleted: boolean): AgendaDay[] {
  const today = dateKey(window.now, window.timeZone);
  const last = addDays(today, window.days - 1);
  const byDay = new Map<string, DueTask[]>();
  for (const dueTask of tasks) {
    if (dueTask.task.deleted || (isCompleted(dueTask) && !showCompleted)) continue;
    const due = dueDateOf(dueTask.task.due);
    if (!due) continue;
    const day = isOverdueTask(dueTask, today) ? today : due;
    if (day < today || day > last) continue;
    const list = byDay.get(day) ?? [];
    list.push(dueTask);
    byDay.set(day, list);
  }
  const merged = new Map<string, AgendaDay>(days.map((group) => [group.key, { ...group, tasks: [] }]));
  for (const [key, dayTasks] of byDay) {
    const existing = merged.get(key);
    const offset = daysBetween(today, key);
    const sorted = [...dayTasks].sort(compareDueTasks);
    merged.set(key, existing ? { ...existing, tasks: sorted } : { key, relative: offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : undefined, occurrences: [], tasks: sorted });
  }
  return [...merged.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Open before completed, overdue (earlier due) first, then by title. */
function compareDueTasks(a: DueTask, b: DueTask): number {
  if (isCompleted(a) !== isCompleted(b)) return isCompleted(a) ? 1 : -1;
  return (a.task.due ?? '').localeCompare(b.task.due ?? '') || a.task.title.localeCompare(b.task.title) || a.task.id.localeCompare(b.task.id);
}

function daysBetween(fromKey: string, toKey: string): number {
  return Math.round((Date.parse(`${toKey}T00:00:00Z`) - Date.parse(`${fromKey}T00:00:00Z`)) / 86_400_000);
}

/** A day's rows in order: all-day events, then the tasks due that day, then timed events. */
export function dayRows(day: AgendaDay): Array<{ readonly kind: 'event'; readonly occurrence: Occurrence } | { readonly kind: 'task'; readonly dueTask: DueTask }> {
  const allDay = day.occurrences.filter((occurrence) => occurrence.allDay);
  const timed = day.occurrences.filter((occurrence) => !occurrence.allDay);
  return [
    ...allDay.map((occurrence) => ({ kind: 'event' as const, occurrence })),
    ...day.tasks.map((dueTask) => ({ kind: 'task' as const, dueTask })),
    ...timed.map((occurrence) => ({ kind: 'event' as const, occurrence })),
  ];
}

/** "2 events", "1 task", "2 events · 1 task". */
export function dayCount(events: number, tasks: number, t: Translate = english): string {
  const parts: string[] = [];
  if (events > 0 || tasks === 0) parts.push(events === 1 ? t('1 event') : t('{0} events', events));
  if (tasks > 0) parts.push(tasks === 1 ? t('1 task') : t('{0} tasks', tasks));
  return parts.join(' · ');
}

/** A task row's description: its list, and "overdue" or "completed" when it is. */
export function dueTaskDescription(dueTask: DueTask, todayKey: string, t: Translate = english): string {
  const notes = [dueTask.listTitle];
  if (isOverdueTask(dueTask, todayKey)) notes.unshift(t('overdue since {0}', dueDateOf(dueTask.task.due) ?? ''));
  else if (isCompleted(dueTask)) notes.unshift(t('completed'));
  return notes.join(' · ');
}
