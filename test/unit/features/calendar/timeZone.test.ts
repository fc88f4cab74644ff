// The Calendar zone when the setting cannot be read: the one the views last showed times in, not the machine's.
import * as assert from 'node:assert/strict';
import { DeskClock } from '../../../../src/core/text/clock';
import { CalendarTimeZone } from '../../../../src/features/calendar/timeZone';

describe('Calendar time zone', () => {
  // A zone no test machine runs in, remembered from the last session.
  const remembered = 'Pacific/Chatham';
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Memento's get<T>, whose T the caller names
  const memory = { get: <T>() => remembered as unknown as T, update: async () => undefined };

  it('keeps the remembered zone when settings.get timezone fails, so Edit Event and the Agenda agree', async () => {
    const warnings: string[] = [];
    const desk = { clock: new DeskClock('en-GB', memory), log: { warn: (message: string) => warnings.push(message) } } as never;
    const zone = new CalendarTimeZone(desk, () => ({ getSetting: async () => { throw new Error('offline'); } }) as never);
    assert.equal(await zone.get(), remembered);
    assert.equal(zone.known, remembered);
    assert.match(warnings[0] ?? '', /could not be read \(offline\); using Pacific\/Chatham/);
  });

  it('takes the setting once it is read, and the clock follows', async () => {
    const clock = new DeskClock('en-GB', memory);
    const zone = new CalendarTimeZone({ clock, log: { warn: () => undefined } } as never, () => ({ getSetting: async () => ({ value: 'Europe/Paris' }) }) as never);
    assert.equal(await zone.get(), 'Europe/Paris');
    assert.equal(clock.timeZone, 'Europe/Paris');
  });
});
