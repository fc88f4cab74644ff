import { DEMO_USERS } from '../auth/users';
import { TasksModel } from './model';

/** A task of the demo data; `subtasks` nest under it, `done` marks it completed. */
interface DemoTask {
  title: string;
  notes?: string;
  /** Days from the seeding day. */
  dueInDays?: number;
  done?: boolean;
  subtasks?: DemoTask[];
}

const DEMO: Record<string, Record<string, DemoTask[]>> = {
  'alice@example.com': {
    'My Tasks': [
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
        dueInDays: 2,
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
      { title: 'Fix the bike’s back tyre', subtasks: [{ title: 'Buy an inner tube' }, { title: 'Find the tyre levers', done: true }] },
      { title: 'Send the quarterly report', done: true },
    ],
    Reading: [
      { title: 'Designing Data-Intensive Applications', notes: 'Chapter 5 next.' },
      { title: 'The Pragmatic Programmer', done: true },
    ],
  },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Demo data for `--seed demo`: several lists for alice, a few for bob; carol starts empty. */
export function seedTasksDemo(model: TasksModel, now: number): void {
  for (const [email, lists] of Object.entries(DEMO)) {
    const user = DEMO_USERS.find((candidate) => candidate.email === email);
    if (!user) continue;
    for (const [title, tasks] of Object.entries(lists)) {
      const list = model.createListForSeed(user.id, title);
      insertAll(model, user.id, list.id, tasks, undefined, now);
    }
  }
}

function insertAll(model: TasksModel, userId: string, listId: string, tasks: readonly DemoTask[], parent: string | undefined, now: number): void {
  let previous: string | undefined;
  for (const demo of tasks) {
    const due = demo.dueInDays === undefined ? undefined : new Date(now + demo.dueInDays * DAY_MS).toISOString();
    const task = model.insertTask(userId, listId, {
      title: demo.title,
      ...(demo.notes ? { notes: demo.notes } : {}),
      ...(due ? { due } : {}),
      status: demo.done ? 'completed' : 'needsAction',
    }, { parent, previous });
    previous = task.id;
    if (demo.subtasks) insertAll(model, userId, listId, demo.subtasks, task.id, now);
  }
}
