/** Demo task lists for `--seed demo`, due dates counted from the seeding day in each user's zone (today, tomorrow, this week, overdue). */
import { dateKeyIn } from '../../shared/dateKey';
import { DEMO_USERS } from '../identity/users';
import { TasksModel } from './model';

/** A task of the demo data; `subtasks` nest under it, `done` marks it completed. */
interface DemoTask {
  title: string;
  notes?: string;
  /** Days from the seeding day in the user's zone (negative: overdue). */
  dueInDays?: number;
  done?: boolean;
  subtasks?: DemoTask[];
}

const DEMO: Record<string, Record<string, DemoTask[]>> = {
  'alice@example.com': {
    'My Tasks': [
      { title: 'Pay the electricity bill', dueInDays: 0 },
      { title: 'Return the library books', notes: 'Two of them: the Rilke and the cookbook.', dueInDays: -2 },
      { title: 'Renew passport', notes: 'Photos are in the top drawer. Form DS-82.', dueInDays: 12 },
      { title: 'Book dentist appointment', dueInDays: 3 },
      { title: 'Call the bank about the card', done: true },
      {
        title: 'Plan the weekend trip',
        notes: 'Somewhere within two hours by train.',
        dueInDays: 9,
        subtasks: [
          { title: 'Pick a destination', done: true },
          { title: 'Book the hotel', dueInDays: 5 },
          { title: 'Buy train tickets', dueInDays: 6 },
        ],
      },
      { title: 'Water the plants' },
    ],
    Groceries: [
      { title: 'Oat milk' },
      { title: 'Eggs (12)' },
      { title: 'Coffee beans', notes: 'Whole bean, medium roast.' },
      { title: 'Bananas', done: true },
      { title: 'Olive oil' },
      { title: 'Tomatoes', done: true },
    ],
    'Desk launch': [
      {
        title: 'Write the README',
        dueInDays: 1,
        subtasks: [
          { title: 'Screenshots of the tree views' },
          { title: 'Emulator quick start', done: true },
        ],
      },
      { title: 'Record the demo video', dueInDays: 7, notes: 'Show the TODO → task quick fix and Drive files.' },
      { title: 'Publish to the marketplace', dueInDays: 14 },
      { title: 'Set up the issue templates', done: true },
      { title: 'Announce on the team channel', dueInDays: 15 },
    ],
  },
  'bob@example.com': {
    'My Tasks': [
      { title: 'Review Alice’s pull request', dueInDays: 1 },
      { title: 'Book flights for the offsite', dueInDays: 0 },
      { title: 'Submit expenses', notes: 'Receipts from the conference.', dueInDays: -1 },
      { title: 'Call the landlord', dueInDays: 4 },
      { title: 'Fix the bike’s back tyre', subtasks: [{ title: 'Buy an inner tube' }, { title: 'Find the tyre levers', done: true }] },
      { title: 'Send the quarterly report', done: true },
    ],
    Reading: [
      { title: 'Designing Data-Intensive Applications', notes: 'Chapter 5 next.' },
      { title: 'The Pragmatic Programmer', done: true },
    ],
  },
  // carol keeps one list, the default one, as a user who has just started.
  'carol@example.com': {
    'My Tasks': [
      { title: 'Send the slides to the Berlin office', dueInDays: 0 },
      { title: 'Renew the office badge', dueInDays: -3 },
      { title: 'Prepare the quarterly numbers', dueInDays: 1 },
      { title: 'Book a meeting room for the offsite', dueInDays: 5 },
    ],
  },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of `days` after the day of `now` in `timeZone`: a task's due date is a date, the user's date. */
export function dueDateIn(timeZone: string, now: number, days: number): string {
  // The day is moved in UTC, where days are 24 hours long.
  const today = dateKeyIn(now, timeZone);
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Demo data for `--seed demo`: several lists for alice, a few for bob, carol's default list. */
export function seedTasksDemo(model: TasksModel, now: number): void {
  for (const [email, lists] of Object.entries(DEMO)) {
    const user = DEMO_USERS.find((candidate) => candidate.email === email);
    if (!user) continue;
    const dueIn = (days: number): string => `${dueDateIn(user.timeZone ?? 'UTC', now, days)}T00:00:00.000Z`;
    for (const [title, tasks] of Object.entries(lists)) {
      const list = model.createListForSeed(user.id, title);
      insertAll(model, user.id, list.id, tasks, undefined, dueIn);
    }
  }
}

function insertAll(model: TasksModel, userId: string, listId: string, tasks: readonly DemoTask[], parent: string | undefined, dueIn: (days: number) => string): void {
  let previous: string | undefined;
  for (const demo of tasks) {
    const due = demo.dueInDays === undefined ? undefined : dueIn(demo.dueInDays);
    const task = model.insertTask(userId, listId, {
      title: demo.title,
      ...(demo.notes ? { notes: demo.notes } : {}),
      ...(due ? { due } : {}),
      status: demo.done ? 'completed' : 'needsAction',
    }, { parent, previous });
    previous = task.id;
    if (demo.subtasks) insertAll(model, userId, listId, demo.subtasks, task.id, dueIn);
  }
}
