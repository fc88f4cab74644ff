import * as assert from 'node:assert/strict';
import { findUser, EmulatorUser } from '../../../../src/emulator/identity/users';
import { RRule } from 'rrule';
import { expandSync } from '../../../../src/emulator/calendar/events/expansion';
import { expandWalls, parseRecurrence } from '../../../../src/emulator/calendar/events/recurrence';
import { instanceId, parseInstanceId } from '../../../../src/emulator/calendar/events/instances';
import { listEvents, listInstances } from '../../../../src/emulator/calendar/events/listing';
import { CalendarService } from '../../../../src/emulator/calendar/service';
import { formatDateTime, offsetAt, utcToWall, wallToUtc } from '../../../../src/emulator/calendar/time';
import { ApiError } from '../../../../src/emulator/core/errors';
import { MemoryStore } from '../../../../src/emulator/store/store';

const alice = findUser('alice@example.com') as EmulatorUser;
const NOW = Date.parse('2026-01-05T08:00:00Z');

function service(): CalendarService {
  return new CalendarService(new MemoryStore(), () => NOW);
}

/** Local clock readings ("HH:MM") of the instances a series has between two instants. */
function localTimes(calendar: CalendarService, seriesId: string, zone: string, from: string, to: string): string[] {
  const result = listInstances(calendar, alice, 'primary', seriesId, { maxResults: 2500, showDeleted: false, timeMin: Date.parse(from), timeMax: Date.parse(to) });
  return result.views.map((view) => formatDateTime(view.instance?.startMs ?? view.event.timing.startMs, zone).slice(0, 16));
}

describe('calendar time zones', () => {
  it('knows Berlin and New York offsets on both sides of their DST changes', () => {
    assert.equal(offsetAt('Europe/Berlin', Date.parse('2026-03-29T00:59:59Z')), 3600_000);
    assert.equal(offsetAt('Europe/Berlin', Date.parse('2026-03-29T01:00:00Z')), 7200_000);
    assert.equal(offsetAt('America/New_York', Date.parse('2026-03-08T06:59:59Z')), -5 * 3600_000);
    assert.equal(offsetAt('America/New_York', Date.parse('2026-03-08T07:00:00Z')), -4 * 3600_000);
  });

  it('answers every instant of a transition week as Intl does (the transition is cached, not measured per instant)', () => {
    const intlOffset = (zone: string, utcMs: number): number => {
      const seconds = Math.floor(utcMs / 1000) * 1000;
      const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(seconds));
      const field = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
      return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second')) - seconds;
    };
    // Both directions, a half-hour DST (Lord Howe) and a southern-hemisphere zone, around each change to the second.
    const changes: Array<[string, string]> = [
      ['Europe/Berlin', '2027-03-28T01:00:00Z'], ['Europe/Berlin', '2027-10-31T01:00:00Z'],
      ['America/New_York', '2027-11-07T06:00:00Z'], ['Australia/Lord_Howe', '2027-04-03T15:00:00Z'], ['America/Santiago', '2027-04-04T03:00:00Z'],
    ];
    for (const [zone, change] of changes) {
      const at = Date.parse(change);
      for (const delta of [-3 * 86_400_000, -3_600_000, -1001, -1000, -999, -1, 0, 1, 999, 1000, 59_000, 3_600_000, 3 * 86_400_000]) {
        assert.equal(offsetAt(zone, at + delta), intlOffset(zone, at + delta), `${zone} at ${new Date(at + delta).toISOString()}`);
      }
    }
  });

  it('pushes a time inside the spring-forward gap forward and takes the earlier of two in the autumn overlap', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: it becomes 03:30 CEST (01:30Z).
    assert.equal(new Date(wallToUtc('Europe/Berlin', Date.UTC(2026, 2, 29, 2, 30))).toISOString(), '2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 2026-10-25: the first (CEST, 00:30Z) wins.
    assert.equal(new Date(wallToUtc('Europe/Berlin', Date.UTC(2026, 9, 25, 2, 30))).toISOString(), '2026-10-25T00:30:00.000Z');
    assert.equal(utcToWall('America/New_York', Date.parse('2026-07-01T13:00:00Z')), Date.UTC(2026, 6, 1, 9, 0));
  });
});

describe('calendar recurrence expansion', () => {
  it('keeps a weekly 09:00 Europe/Berlin meeting at 09:00 local across the March and October changes', () => {
    const calendar = service();
    const series = calendar.events.insert(alice, 'primary', {
      summary: 'Weekly', start: { dateTime: '2026-03-16T09:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-03-16T10:00:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20261110T000000Z'],
    }, { conferenceDataVersion: 0 });
    const views = listInstances(calendar, alice, 'primary', series.id, { maxResults: 2500, showDeleted: false }).views;
    const utc = views.map((view) => new Date(view.instance?.startMs as number).toISOString().slice(0, 16));
    assert.equal(utc[1], '2026-03-23T08:00', 'CET: 09:00 is 08:00Z');
    assert.equal(utc[2], '2026-03-30T07:00', 'CEST after 29 March: 09:00 is 07:00Z');
    assert.ok(utc.includes('2026-10-19T07:00') && utc.includes('2026-10-26T08:00'), 'back to CET after 25 October');
    assert.deepEqual(new Set(localTimes(calendar, series.id, 'Europe/Berlin', '2026-03-01T00:00:00Z', '2026-12-01T00:00:00Z').map((time) => time.slice(11))), new Set(['09:00']));
    assert.equal(utc[utc.length - 1], '2026-11-09T08:00', 'UNTIL (UTC) is respected');
  });

  it('keeps America/New_York 09:00 across its own March and November changes', () => {
    const calendar = service();
    const series = calendar.events.insert(alice, 'primary', {
      summary: 'NY', start: { dateTime: '2026-03-02T09:00:00-05:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-03-02T09:30:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=40'],
    }, { conferenceDataVersion: 0 });
    const views = listInstances(calendar, alice, 'primary', series.id, { maxResults: 2500, showDeleted: false }).views;
    assert.equal(views.length, 40);
    const utc = views.map((view) => new Date(view.instance?.startMs as number).toISOString().slice(11, 16));
    assert.equal(utc[0], '14:00');
    assert.equal(utc[1], '13:00', 'EDT from 8 March');
    assert.equal(utc[35], '14:00', 'EST again from 1 November');
  });

  it('applies EXDATE (UTC, TZID and DATE forms), EXRULE and RDATE', () => {
    const series = { startWall: Date.UTC(2026, 0, 5, 9, 0), allDay: false, zone: 'Europe/Berlin' };
    const parsed = parseRecurrence([
      'RRULE:FREQ=DAILY;COUNT=10',
      'EXDATE:20260106T080000Z',
      'EXDATE;TZID=Europe/Berlin:20260107T090000',
      'EXDATE;VALUE=DATE:20260108',
      'EXRULE:FREQ=WEEKLY;BYDAY=SA,SU',
      'RDATE;TZID=America/New_York:20260120T030000',
    ], series);
    const days = expandWalls(parsed, series, Date.UTC(2026, 1, 1)).map((wall) => new Date(wall).toISOString().slice(0, 16));
    assert.deepEqual(days, ['2026-01-05T09:00', '2026-01-09T09:00', '2026-01-12T09:00', '2026-01-13T09:00', '2026-01-14T09:00', '2026-01-20T09:00']);
  });

  it('expands all-day series by date and names their instances <id>_<YYYYMMDD>', () => {
    const calendar = service();
    const series = calendar.events.insert(alice, 'primary', { summary: 'Bins', start: { date: '2026-01-31' }, end: { date: '2026-02-01' }, recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3'] }, { conferenceDataVersion: 0 });
    const ids = listInstances(calendar, alice, 'primary', series.id, { maxResults: 10, showDeleted: false }).views.map((view) => view.instance?.id);
    assert.deepEqual(ids, [`${series.id}_20260131`, `${series.id}_20260228`, `${series.id}_20260331`]);
    assert.deepEqual(parseInstanceId(`${series.id}_20260228`), { seriesId: series.id, originalStart: Date.UTC(2026, 1, 28), allDay: true });
  });

  it('names timed instances <id>_<YYYYMMDDTHHMMSSZ> after their original UTC start', () => {
    assert.equal(instanceId('abcde', Date.parse('2026-03-30T07:00:00Z'), false), 'abcde_20260330T070000Z');
    assert.deepEqual(parseInstanceId('abcde_20260330T070000Z'), { seriesId: 'abcde', originalStart: Date.parse('2026-03-30T07:00:00Z'), allDay: false });
    assert.equal(parseInstanceId('abcdefgh'), undefined);
  });

  it('rejects DTSTART, unknown properties and UNTIL with COUNT as 400s', () => {
    const series = { startWall: Date.UTC(2026, 0, 5, 9), allDay: false, zone: 'UTC' };
    for (const lines of [['DTSTART:20260101T000000Z'], ['RRULE:FREQ=DAILY;FOO=1'], ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20260110T000000Z'], ['RRULE:INTERVAL=2'], ['RRULE:FREQ=FORTNIGHTLY']]) {
      assert.throws(() => parseRecurrence(lines, series), (error: unknown) => error instanceof ApiError && error.code === 400, lines[0]);
    }
  });

  it('requires a time zone on recurring timed events, as Google does', () => {
    assert.throws(() => service().events.insert(alice, 'primary', { summary: 'x', start: { dateTime: '2026-01-05T09:00:00Z' }, end: { dateTime: '2026-01-05T10:00:00Z' }, recurrence: ['RRULE:FREQ=DAILY'] }, { conferenceDataVersion: 0 }),
      (error: unknown) => error instanceof ApiError && error.code === 400 && /time zone/.test(error.message));
  });
});

describe('calendar exceptions', () => {
  it('keeps a modified instance changed and a cancelled one gone, in instances and singleEvents listings', async () => {
    const calendar = service();
    const series = calendar.events.insert(alice, 'primary', {
      summary: 'Standup', start: { dateTime: '2026-01-05T09:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-01-05T09:15:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
    }, { conferenceDataVersion: 0 });
    const second = `${series.id}_20260106T080000Z`;
    const third = `${series.id}_20260107T080000Z`;
    const moved = calendar.events.update(alice, 'primary', second, { summary: 'Standup (late)', start: { dateTime: '2026-01-06T11:00:00+01:00' }, end: { dateTime: '2026-01-06T11:15:00+01:00' } }, 'patch', { conferenceDataVersion: 0 });
    assert.equal(moved.id, second);
    assert.equal(moved.recurringEventId, series.id);
    calendar.events.delete(alice, 'primary', third);
    // The series changes afterwards; the exception keeps its own summary and time.
    calendar.events.update(alice, 'primary', series.id, { description: 'Daily' }, 'patch', { conferenceDataVersion: 0 });

    const instances = listInstances(calendar, alice, 'primary', series.id, { maxResults: 50, showDeleted: false }).views;
    assert.deepEqual(instances.map((view) => view.instance?.id ?? view.event.id), [`${series.id}_20260105T080000Z`, second, `${series.id}_20260108T080000Z`, `${series.id}_20260109T080000Z`]);
    assert.equal(instances[1]?.event.body.summary, 'Standup (late)');
    assert.equal(instances[1]?.event.timing.startMs, Date.parse('2026-01-06T10:00:00Z'));
    const withDeleted = listInstances(calendar, alice, 'primary', series.id, { maxResults: 50, showDeleted: true }).views;
    assert.equal(withDeleted.find((view) => view.event.id === third)?.event.status, 'cancelled');

    const singles = await listEvents(calendar, alice, 'primary', { maxResults: 50, showDeleted: false, singleEvents: true, orderBy: 'startTime', eventTypes: [], privateExtendedProperty: [], sharedExtendedProperty: [] });
    assert.deepEqual(singles.views.map((view) => view.instance?.id ?? view.event.id), instances.map((view) => view.instance?.id ?? view.event.id));
    // Without singleEvents: the series, its modified exception, and its cancelled instance (so clients can hide it).
    const grouped = await listEvents(calendar, alice, 'primary', { maxResults: 50, showDeleted: false, singleEvents: false, eventTypes: [], privateExtendedProperty: [], sharedExtendedProperty: [] });
    assert.deepEqual(new Set(grouped.views.map((view) => view.event.id)), new Set([series.id, second, third]));
  });

  it('expands a ten-year daily series into 3,650 instances', () => {
    const calendar = service();
    const series = calendar.events.insert(alice, 'primary', { summary: 'Daily', start: { dateTime: '2026-01-05T07:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-01-05T07:30:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3650'] }, { conferenceDataVersion: 0 });
    const first = listInstances(calendar, alice, 'primary', series.id, { maxResults: 2500, showDeleted: false });
    assert.equal(first.views.length, 2500);
    assert.ok(first.nextPageToken);
    const rest = listInstances(calendar, alice, 'primary', series.id, { maxResults: 2500, showDeleted: false, pageToken: first.nextPageToken as string });
    assert.equal(rest.views.length, 1150);
    assert.equal(rest.nextPageToken, undefined);
  });
});

describe('calendar recurrence that cannot freeze the emulator', () => {
  const timedBody = (recurrence: string[]): Parameters<CalendarService['events']['insert']>[2] => ({
    summary: 'r', start: { dateTime: '2026-01-05T10:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-01-05T11:00:00', timeZone: 'UTC' }, recurrence,
  });
  const refusedRule = (error: unknown): boolean => error instanceof ApiError && error.code === 400 && error.reason === 'invalid' && error.message === 'Invalid recurrence rule.';
  const OUT_OF_RANGE = [
    'RRULE:FREQ=SECONDLY;BYSECOND=61', 'RRULE:FREQ=HOURLY;BYHOUR=24', 'RRULE:FREQ=DAILY;BYMINUTE=60', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=0',
    'RRULE:FREQ=MONTHLY;BYMONTHDAY=32', 'RRULE:FREQ=YEARLY;BYMONTH=0', 'RRULE:FREQ=YEARLY;BYMONTH=13', 'RRULE:FREQ=YEARLY;BYYEARDAY=0',
    'RRULE:FREQ=YEARLY;BYYEARDAY=-367', 'RRULE:FREQ=YEARLY;BYWEEKNO=54', 'RRULE:FREQ=MONTHLY;BYDAY=0MO', 'RRULE:FREQ=YEARLY;BYDAY=54MO',
    'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', 'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367', 'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-999',
    'RRULE:FREQ=DAILY;UNTIL=20261399', 'RRULE:FREQ=DAILY;UNTIL=20260230T000000Z', 'EXRULE:FREQ=MINUTELY;BYMINUTE=99',
    // Valid numbers that rrule's counter can never reach: it would loop forever looking for them.
    'RRULE:FREQ=HOURLY;INTERVAL=24;BYHOUR=5', 'RRULE:FREQ=SECONDLY;BYSECOND=60', 'RRULE:FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1',
    // One period with more candidate times than the emulator builds at once.
    'RRULE:FREQ=YEARLY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,10,20,30,40,50',
  ];

  it('refuses out-of-range and unreachable rule values with Google\'s 400 "Invalid recurrence rule." at insert, import, update and patch', () => {
    const calendar = service();
    const existing = calendar.events.insert(alice, 'primary', timedBody(['RRULE:FREQ=DAILY;COUNT=3']), { conferenceDataVersion: 0 });
    for (const line of OUT_OF_RANGE) {
      const lines = line.startsWith('EXRULE') ? ['RRULE:FREQ=DAILY', line] : [line];
      assert.throws(() => calendar.events.insert(alice, 'primary', timedBody(lines), { conferenceDataVersion: 0 }), refusedRule, `insert ${line}`);
      assert.throws(() => calendar.events.import(alice, 'primary', { ...timedBody(lines), iCalUID: `u-${line}` }, { conferenceDataVersion: 0 }), refusedRule, `import ${line}`);
      assert.throws(() => calendar.events.update(alice, 'primary', existing.id, timedBody(lines), 'update', { conferenceDataVersion: 0 }), refusedRule, `update ${line}`);
      assert.throws(() => calendar.events.update(alice, 'primary', existing.id, { recurrence: lines }, 'patch', { conferenceDataVersion: 0 }), refusedRule, `patch ${line}`);
    }
    // The edges of each range are still rules.
    for (const line of ['RRULE:FREQ=DAILY;BYSECOND=0,59;COUNT=2', 'RRULE:FREQ=DAILY;BYHOUR=0,23;COUNT=2', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-31,31;COUNT=2', 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1,366;COUNT=2', 'RRULE:FREQ=HOURLY;INTERVAL=24;BYHOUR=10;COUNT=2']) {
      assert.doesNotThrow(() => calendar.events.insert(alice, 'primary', timedBody([line]), { conferenceDataVersion: 0 }), line);
    }
  });

  it('expands a rule that never matches with bounded work, and knows how far it got', () => {
    const series = { startWall: Date.UTC(2026, 0, 5, 10), allDay: false, zone: 'UTC' };
    const parsed = parseRecurrence(['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=31', 'RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29'], series);
    // Over five years: no instance but the start, and the expansion knows it covered the whole window.
    const fiveYears = expandSync(parsed, series, Date.UTC(2031, 0, 1));
    assert.deepEqual(fiveYears.walls, [series.startWall]);
    assert.ok(fiveYears.covered > Date.UTC(2031, 0, 1));
    // To year 9999 (8 s of rrule's work before): the budget stops it, and it says where, instead of pretending it is done.
    const toTheEnd = expandSync(parsed, series, Date.UTC(9999, 0, 1));
    assert.equal(toTheEnd.complete, false);
    assert.ok(toTheEnd.covered < Date.UTC(9999, 0, 1) && toTheEnd.covered > Date.UTC(2031, 0, 1));
  });

  it('expands by slices exactly what one rrule run gives, for every frequency and its period boundaries', () => {
    const series = { startWall: Date.UTC(2026, 0, 7, 9, 30, 15), allDay: false, zone: 'UTC' };
    const rules = [
      'FREQ=YEARLY;BYMONTH=1,7;BYDAY=-1FR;COUNT=40', 'FREQ=MONTHLY;INTERVAL=3;BYDAY=MO,TU;BYSETPOS=2,-1;COUNT=300', 'FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,WE;COUNT=900',
      'FREQ=DAILY;INTERVAL=3;BYHOUR=8,20;COUNT=5000', 'FREQ=HOURLY;INTERVAL=5;BYMONTHDAY=1,15;COUNT=3000', 'FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=20400101T000000Z',
    ];
    for (const rule of rules) {
      const sliced = expandSync(parseRecurrence([`RRULE:${rule}`], series), series, Date.UTC(2100, 0, 1)).walls;
      const whole = new RRule({ ...RRule.parseString(rule), dtstart: new Date(series.startWall) }).all().map((date) => date.getTime());
      assert.deepEqual(sliced, [...new Set([series.startWall, ...whole])].sort((a, b) => a - b), rule);
    }
  });

  it('expands the same when every slice is cut short by its time limit (a rule that rarely matches, walked a few periods a slice)', () => {
    const series = { startWall: Date.UTC(2026, 0, 7, 9, 30, 15), allDay: false, zone: 'UTC' };
    const rules = [
      'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;UNTIL=21000101T000000Z', 'FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,WE;COUNT=900', 'FREQ=MONTHLY;BYMONTHDAY=31;UNTIL=20400101T000000Z',
      'FREQ=YEARLY;BYMONTH=1,7;BYDAY=-1FR;COUNT=40', 'FREQ=DAILY;INTERVAL=3;BYHOUR=8,20;COUNT=2000',
    ];
    for (const rule of rules) {
      const sliced = expandSync(parseRecurrence([`RRULE:${rule}`], series), series, Date.UTC(2100, 0, 1), 0).walls;
      const whole = new RRule({ ...RRule.parseString(rule), dtstart: new Date(series.startWall) }).all().map((date) => date.getTime());
      assert.deepEqual(sliced, [...new Set([series.startWall, ...whole])].sort((a, b) => a - b), rule);
    }
    // A sub-daily rule whose days come from a daily companion rule, cut the same way.
    const minutely = 'FREQ=MINUTELY;INTERVAL=30;BYMONTH=2;BYMONTHDAY=29;COUNT=200';
    const expected: number[] = [];
    for (let wall = series.startWall; expected.length < 200; wall += 30 * 60_000) {
      const date = new Date(wall);
      if (date.getUTCMonth() === 1 && date.getUTCDate() === 29) expected.push(wall);
    }
    assert.deepEqual(expandSync(parseRecurrence([`RRULE:${minutely}`], series), series, Date.UTC(2100, 0, 1), 0).walls, [series.startWall, ...expected], minutely);
  });

  it('walks sub-daily rules on their grid of INTERVAL steps from the start, limited by the BY parts (RFC 5545)', () => {
    const series = { startWall: Date.UTC(2026, 0, 7, 9, 30, 15), allDay: false, zone: 'UTC' };
    // rule, step in seconds, which grid points count, how many
    const cases: Array<[string, number, (date: Date) => boolean, number]> = [
      ['FREQ=MINUTELY;INTERVAL=7;BYHOUR=9;COUNT=3000', 7 * 60, (date) => date.getUTCHours() === 9, 3000],
      ['FREQ=SECONDLY;INTERVAL=13;BYMINUTE=0;BYDAY=MO;COUNT=400', 13, (date) => date.getUTCMinutes() === 0 && date.getUTCDay() === 1, 400],
      ['FREQ=HOURLY;INTERVAL=5;BYHOUR=1,2,3;BYMONTH=3;COUNT=500', 5 * 3600, (date) => [1, 2, 3].includes(date.getUTCHours()) && date.getUTCMonth() === 2, 500],
    ];
    for (const [rule, stepSeconds, counts, total] of cases) {
      const expected: number[] = [];
      // Minutely and hourly instances keep the start's seconds (and minutes), as BYSECOND/BYMINUTE default to them.
      for (let wall = series.startWall; expected.length < total; wall += stepSeconds * 1000) if (counts(new Date(wall))) expected.push(wall);
      const sliced = expandSync(parseRecurrence([`RRULE:${rule}`], series), series, Date.UTC(2100, 0, 1)).walls;
      assert.deepEqual(sliced, [...new Set([series.startWall, ...expected])].sort((a, b) => a - b), rule);
    }
  });
});
