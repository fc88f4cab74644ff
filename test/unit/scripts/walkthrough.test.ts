// The Welcome page's walkthrough ticks a step when the user has done what it teaches (added a task, opened a Drive
// file, searched books…), never merely because a view was expanded, which happens while signed out too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Step {
  id: string;
  completionEvents?: string[];
}
interface Manifest {
  contributes: { commands: Array<{ command: string }>; walkthroughs: Array<{ steps: Step[] }> };
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const steps = pkg.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps);
const commands = new Set(pkg.contributes.commands.map((command) => command.command));

describe('walkthrough', () => {
  it('ticks each step on an action of the user, not on a view being shown or the step being opened', () => {
    for (const step of steps) {
      const events = step.completionEvents ?? [];
      assert.ok(events.length > 0, `step ${step.id} has no completion event: it would be ticked when merely selected`);
      for (const event of events) assert.match(event, /^(onCommand|onContext):/, `step ${step.id}: ${event} is no action of the user`);
    }
  });

  it('names only commands Desk contributes', () => {
    const unknown = steps.flatMap((step) => (step.completionEvents ?? []).filter((event) => event.startsWith('onCommand:') && !commands.has(event.slice('onCommand:'.length))));
    assert.deepEqual(unknown, []);
  });

  it('the Tasks step\'s context key is the one the checkbox handler sets', () => {
    const source = fs.readFileSync(path.join(root, 'src', 'features', 'tasks', 'index.ts'), 'utf8');
    const key = /WALKTHROUGH_TICKED_CONTEXT_KEY = '([^']+)'/.exec(source)?.[1];
    assert.ok(key, 'src/features/tasks/index.ts defines no walkthrough context key');
    assert.ok(steps.find((step) => step.id === 'tasks')?.completionEvents?.includes(`onContext:${key}`));
  });
});
