/**
 * Bounded, resumable expansion of recurrence rules. rrule walks a rule from its start to year 9999 whenever a
 * period yields nothing (a rule that never matches took 8–12 s a line), and cannot be paused; so each rule is
 * expanded here in slices of a few thousand candidate times, each slice an rrule run that starts at a period
 * boundary of the rule (where it yields exactly what the whole run yields from there on) and is cut off after a set
 * number of periods. Between slices an asynchronous expansion yields to the event loop, and every expansion has a
 * work budget and an instance cap, so no rule, however written, holds the server.
 */
import { performance } from 'node:perf_hooks';
import { RRule } from 'rrule';
import { TimeSlices } from '../../core/slices';
import { DAY_MS, HOUR_MS } from '../time';
import type { ParsedRecurrence, SeriesStart } from './recurrence';

/** rrule's parsed options: every BY part explicit (rrule does not export the type by name). */
export type ParsedOptions = RRule['options'];

/** Candidate date-times one slice builds at most: a few milliseconds of rrule's work. */
const SLICE_CANDIDATES = 5_000;
/**
 * How long one slice may run, whatever its candidate count: a rule that rarely matches walks thousands of periods
 * in rrule for each candidate it builds (a daily rule on February 30 took 20–100 ms a slice). Checked every few
 * periods; a slice always finishes the period it is in.
 */
const SLICE_TIME_MS = 4;
const DEADLINE_CHECK_PERIODS = 16;
/**
 * Grid points a sub-daily slice walks at most, and how many of them cost one candidate of the budget: walking the
 * grid is a few arithmetic operations a point, an rrule candidate several times that.
 */
const SUB_DAILY_SLICE_POINTS = 40_000;
const POINTS_PER_CANDIDATE = 8;
/** Instances one series keeps at most (a listing that needs more is refused, never cut short silently). */
export const MAX_SERIES_INSTANCES = 100_000;
/** Candidate times a synchronous expansion (one not prepared ahead) may build: some tens of milliseconds. */
export const SYNC_BUDGET = 50_000;
/** Candidate times the expansions of one request may build in all: well under a second of work, yielding throughout. */
export const REQUEST_BUDGET = 200_000;
/** rrule stops at year 9999 too. */
const LAST_WALL = Date.UTC(9999, 11, 31, 23, 59, 59);

/** A shared allowance of candidate times, spent by every expansion of one request. */
export interface WorkBudget {
  candidates: number;
}

const MINUTE_MS = 60_000;
const DAYS_PER_PERIOD = [366, 31, 7, 1, 1, 1, 1];

/** How many date-times rrule builds for one period of a rule (days in the period × times a day), before its filters. */
export function candidatesPerPeriod(options: ParsedOptions): number {
  const size = (values: readonly number[] | null): number => Math.max(1, values?.length ?? 1);
  const times = options.freq <= RRule.DAILY ? size(options.byhour) * size(options.byminute) * size(options.bysecond)
    : options.freq === RRule.HOURLY ? size(options.byminute) * size(options.bysecond)
      : options.freq === RRule.MINUTELY ? size(options.bysecond) : 1;
  return (DAYS_PER_PERIOD[options.freq] ?? 1) * times;
}

/** Where period `periods` (counted from the period holding the rule's start) begins, as a wall time. */
function periodStart(options: ParsedOptions, base: number, periods: number): number {
  const units = periods * options.interval;
  const date = new Date(base);
  switch (options.freq) {
    case RRule.YEARLY:
      return Date.UTC(date.getUTCFullYear() + units, 0, 1);
    case RRule.MONTHLY:
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + units, 1);
    case RRule.WEEKLY:
      return base + units * 7 * DAY_MS;
    case RRule.DAILY:
      return base + units * DAY_MS;
    case RRule.HOURLY:
      return base + units * HOUR_MS;
    case RRule.MINUTELY:
      return base + units * MINUTE_MS;
    default:
      return base + units * 1000;
  }
}

/** The number of the first period that begins after `wall` (periods counted from `base`, the first one 0). */
function periodsUntil(options: ParsedOptions, base: number, wall: number): number {
  const from = new Date(base);
  const to = new Date(Math.min(wall, LAST_WALL));
  const unitsBetween = options.freq === RRule.YEARLY ? to.getUTCFullYear() - from.getUTCFullYear()
    : options.freq === RRule.MONTHLY ? (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth()
      : Math.floor((to.getTime() - base) / (options.freq === RRule.WEEKLY ? 7 * DAY_MS : options.freq === RRule.DAILY ? DAY_MS : options.freq === RRule.HOURLY ? HOUR_MS : options.freq === RRule.MINUTELY ? MINUTE_MS : 1000));
  return Math.floor(Math.max(0, unitsBetween) / options.interval) + 1;
}

/** The start of the period holding `start`: rrule's counter stands on these boundaries (weeks begin on WKST). */
function firstPeriod(options: ParsedOptions, start: number): number {
  const date = new Date(start);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  switch (options.freq) {
    case RRule.YEARLY:
      return Date.UTC(date.getUTCFullYear(), 0, 1);
    case RRule.MONTHLY:
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    case RRule.WEEKLY: {
      const weekday = (date.getUTCDay() + 6) % 7; // rrule counts Monday as 0, like WKST
      return day - ((weekday - options.wkst + 7) % 7) * DAY_MS;
    }
    case RRule.DAILY:
      return day;
    case RRule.HOURLY:
      return start - (start % HOUR_MS);
    case RRule.MINUTELY:
      return start - (start % MINUTE_MS);
    default:
      return start - (start % 1000);
  }
}

/** One RRULE or EXRULE being expanded: where its next slice starts, what it has yielded, whether it has ended. */
interface Cursor {
  readonly walls: number[];
  readonly done: boolean;
  /** Where the next slice starts; everything the rule yields before it is in `walls`. */
  readonly next: number;
  /**
   * Expands one slice, stopping once it is past `untilWall` or at the first period boundary after `deadline` (a
   * performance.now() reading); returns the candidate times it built (for budgets).
   */
  slice(untilWall: number, deadline: number): number;
}

/** A daily, weekly, monthly or yearly rule, expanded by rrule one slice of periods at a time. */
class RuleCursor implements Cursor {
  readonly walls: number[] = [];
  done = false;
  private period = 0;
  private remaining: number | null;
  private readonly base: number;
  private readonly periodsPerSlice: number;
  /** A reusable rrule object; each slice gives it options starting at the slice. */
  private readonly runner = new RRule({ freq: RRule.DAILY, dtstart: new Date(0) }, true);

  constructor(private readonly options: ParsedOptions) {
    this.remaining = options.count;
    this.base = firstPeriod(options, options.dtstart.getTime());
    this.periodsPerSlice = Math.max(1, Math.floor(SLICE_CANDIDATES / candidatesPerPeriod(options)));
  }

  get next(): number {
    return this.done ? Number.POSITIVE_INFINITY : this.period === 0 ? this.options.dtstart.getTime() : periodStart(this.options, this.base, this.period);
  }

  slice(untilWall: number, deadline: number): number {
    const from = this.next;
    const periods = Math.min(this.periodsPerSlice, Math.max(1, periodsUntil(this.options, this.base, untilWall) - this.period));
    const windowEnd = periodStart(this.options, this.base, this.period + periods);
    if (from > LAST_WALL || (this.remaining !== null && this.remaining <= 0)) {
      this.done = true;
      return 1;
    }
    const interval = this.options.interval;
    const sliceOptions: ParsedOptions = { ...this.options, dtstart: new Date(from), count: this.remaining };
    // rrule reads `interval` once at its start, then twice a period: at the period's end (where 0 stops it) and
    // to step its counter. Answering 0 at a period's end after the slice's periods ends the run there; so does
    // the deadline (a rule whose periods rarely match runs long between calls of the callback below).
    let reads = 0;
    let cutOff = false as boolean; // set by the iterator callback below
    let cutByTime: number | undefined;
    const allowedPeriods = periods + 1;
    Object.defineProperty(sliceOptions, 'interval', {
      enumerable: true,
      get: () => {
        reads++;
        if (reads % 2 !== 0) return interval;
        const walked = reads / 2;
        if (walked > allowedPeriods) {
          cutOff = true;
          return 0;
        }
        if (walked < periods && walked % DEADLINE_CHECK_PERIODS === 0 && performance.now() >= deadline) {
          cutByTime = walked; // periods 0 … walked - 1 of the slice are done, every instance in them emitted
          return 0;
        }
        return interval;
      },
    });
    // Set by the callbacks below (`as boolean`: TypeScript does not see a callback's assignment).
    let reachedWindowEnd = false as boolean;
    let kept = 0;
    (this.runner as unknown as { options: ParsedOptions }).options = sliceOptions;
    this.runner.all((date) => {
      const wall = date.getTime();
      if (wall >= windowEnd) {
        reachedWindowEnd = true;
        return false;
      }
      this.walls.push(wall);
      kept++;
      return true;
    });
    if (this.remaining !== null) this.remaining -= kept;
    if (cutByTime !== undefined) this.period += cutByTime;
    else if (!reachedWindowEnd && !cutOff) this.done = true; // rrule ended by itself: UNTIL, COUNT or year 9999
    else this.period += periods;
    return Math.max(1, Math.floor(reads / 2)) * candidatesPerPeriod(this.options);
  }
}

const HAS_DAY_FILTER: readonly (keyof ParsedOptions)[] = ['bymonth', 'bymonthday', 'bynmonthday', 'byyearday', 'byweekno', 'byweekday', 'bynweekday'];

/**
 * An hourly, minutely or secondly rule, expanded here rather than by rrule: rrule's counter loops until BYHOUR (or
 * BYMINUTE, BYSECOND) matches and leaves the rule's grid of INTERVAL steps when it carries into the next hour, and it
 * steps through every day a day-level filter rejects. Here the grid is walked directly (RFC 5545: every INTERVAL-th
 * unit from the start, limited by the BY parts), days come from a daily companion rule with the same day filters
 * (so a rule that matches rarely skips whole days), and BYSETPOS picks within each period.
 */
class SubDailyCursor implements Cursor {
  readonly walls: number[] = [];
  done = false;
  private position: number;
  private remaining: number | null;
  private readonly origin: number;
  private readonly stepMs: number;
  /** Offsets of the candidate times within one period, in order. */
  private readonly offsets: number[];
  private readonly days: RuleCursor | undefined;
  private dayIndex = 0;
  private readonly start: number;
  private readonly until: number;

  constructor(private readonly options: ParsedOptions) {
    const unitMs = options.freq === RRule.HOURLY ? HOUR_MS : options.freq === RRule.MINUTELY ? MINUTE_MS : 1000;
    this.start = options.dtstart.getTime();
    this.origin = this.start - (this.start % unitMs);
    this.position = this.origin;
    this.stepMs = unitMs * options.interval;
    this.remaining = options.count;
    this.until = options.until ? options.until.getTime() : LAST_WALL;
    const sorted = (values: readonly number[] | null): number[] => [...(values ?? [])].sort((a, b) => a - b);
    this.offsets = options.freq === RRule.HOURLY
      ? sorted(options.byminute).flatMap((minute) => sorted(options.bysecond).map((second) => minute * MINUTE_MS + second * 1000))
      : options.freq === RRule.MINUTELY ? sorted(options.bysecond).map((second) => second * 1000) : [0];
    const filtersDays = HAS_DAY_FILTER.some((key) => ((options[key] as readonly unknown[] | null)?.length ?? 0) > 0) || options.byeaster !== null;
    this.days = filtersDays
      ? new RuleCursor({ ...options, freq: RRule.DAILY, interval: 1, byhour: [0], byminute: [0], bysecond: [0], bysetpos: [], count: null, dtstart: new Date(this.start - (this.start % DAY_MS)) })
      : undefined;
  }

  get next(): number {
    return this.done ? Number.POSITIVE_INFINITY : Math.max(this.position, this.start);
  }

  slice(untilWall: number, deadline: number): number {
    let points = 0;
    let dayWork = 0;
    let steps = 0;
    while (!this.done && points < SUB_DAILY_SLICE_POINTS && dayWork < SLICE_CANDIDATES && this.position <= untilWall) {
      if (++steps % DEADLINE_CHECK_PERIODS === 0 && performance.now() >= deadline) break;
      if (this.position > this.until || this.position > LAST_WALL || (this.remaining !== null && this.remaining <= 0)) {
        this.done = true;
        break;
      }
      if (this.days) {
        const day = this.position - (this.position % DAY_MS);
        const found = this.matchingDayFrom(day, untilWall, deadline);
        dayWork += found.work;
        if (found.day === undefined) {
          // No accepted day before the companion's progress: the grid moves on to where it stands.
          if (this.days.done) this.done = true;
          else this.position = Math.max(this.position, this.gridPointFrom(this.days.next));
          continue;
        }
        if (found.day > day) {
          this.position = this.gridPointFrom(found.day);
          continue;
        }
      }
      points += this.offsets.length;
      if (this.periodAllowed(this.position)) this.emit(this.position);
      this.position += this.stepMs;
    }
    return Math.max(1, Math.ceil(points / POINTS_PER_CANDIDATE) + dayWork);
  }

  /** The first point of the rule's grid at or after `wall`. */
  private gridPointFrom(wall: number): number {
    return this.origin + Math.ceil((wall - this.origin) / this.stepMs) * this.stepMs;
  }

  /** The first day at or after `day` the day filters accept (undefined: none known yet, or none at all once `days` is done). */
  private matchingDayFrom(day: number, untilWall: number, deadline: number): { day?: number; work: number } {
    const days = this.days as RuleCursor;
    let work = 0;
    for (;;) {
      while (this.dayIndex < days.walls.length && (days.walls[this.dayIndex]) < day) this.dayIndex++;
      if (this.dayIndex < days.walls.length) return { day: days.walls[this.dayIndex], work };
      if (days.done || work >= SLICE_CANDIDATES || days.next > untilWall || (work > 0 && performance.now() >= deadline)) return { work };
      work += days.slice(untilWall, deadline);
    }
  }

  private periodAllowed(period: number): boolean {
    const secondsOfDay = Math.floor((period % DAY_MS) / 1000);
    const allows = (values: readonly number[] | null, value: number): boolean => !values || values.length === 0 || values.includes(value);
    if (!allows(this.options.byhour, Math.floor(secondsOfDay / 3600))) return false;
    if (this.options.freq !== RRule.HOURLY && !allows(this.options.byminute, Math.floor((secondsOfDay % 3600) / 60))) return false;
    return this.options.freq !== RRule.SECONDLY || allows(this.options.bysecond, secondsOfDay % 60);
  }

  private emit(period: number): void {
    let candidates = this.offsets.map((offset) => period + offset);
    // rrule leaves bysetpos null when the rule has none (its type says number[]).
    const positions = this.options.bysetpos as readonly number[] | null;
    if (positions && positions.length > 0) {
      const picked = new Set<number>();
      for (const position of positions) {
        const candidate = candidates[position > 0 ? position - 1 : candidates.length + position] as number | undefined;
        if (candidate !== undefined) picked.add(candidate);
      }
      candidates = [...picked].sort((a, b) => a - b);
    }
    for (const wall of candidates) {
      if (wall < this.start) continue;
      if (wall > this.until) {
        this.done = true;
        return;
      }
      this.walls.push(wall);
      if (this.remaining !== null && --this.remaining <= 0) {
        this.done = true;
        return;
      }
    }
  }
}

/** What is known of a series so far: its instance walls before `covered`, in order. */
export interface ExpansionState {
  walls: number[];
  /** Every instance before this wall is in `walls` (Infinity once the series is fully known). */
  covered: number;
  complete: boolean;
  /** The series has more instances than the emulator keeps for one series. */
  capped: boolean;
}

/** A series' expansion that grows on demand and remembers where each of its rules stopped. */
export class SeriesExpansion {
  private readonly rules: Cursor[];
  private readonly exrules: Cursor[];
  private state: ExpansionState;
  private capped = false;

  /** `sliceTimeMs`: how long one slice may run (tests shorten it to cut every slice by time). */
  constructor(private readonly parsed: ParsedRecurrence, private readonly series: SeriesStart, private readonly sliceTimeMs = SLICE_TIME_MS) {
    const cursorFor = (options: ParsedOptions): Cursor => (options.freq > RRule.DAILY ? new SubDailyCursor(options) : new RuleCursor(options));
    this.rules = parsed.rules.map(cursorFor);
    this.exrules = parsed.exrules.map(cursorFor);
    this.state = this.combine();
  }

  get current(): ExpansionState {
    return this.state;
  }

  /** Expands until every instance up to `untilWall` is known, the budget runs out or the cap is reached. */
  extendSync(untilWall: number, budget: WorkBudget): ExpansionState {
    while (this.wants(untilWall, budget)) budget.candidates -= this.nextCursor().slice(untilWall, performance.now() + this.sliceTimeMs);
    this.state = this.combine();
    return this.state;
  }

  /** The same, letting other requests in every few milliseconds. */
  async extend(untilWall: number, budget: WorkBudget, slices = new TimeSlices()): Promise<ExpansionState> {
    while (this.wants(untilWall, budget)) {
      budget.candidates -= this.nextCursor().slice(untilWall, performance.now() + this.sliceTimeMs);
      await slices.pause();
    }
    this.state = this.combine();
    return this.state;
  }

  private wants(untilWall: number, budget: WorkBudget): boolean {
    if (this.capped || budget.candidates <= 0) return false;
    if (this.rules.reduce((total, rule) => total + rule.walls.length, 0) > MAX_SERIES_INSTANCES) {
      this.capped = true;
      return false;
    }
    return this.covered() <= untilWall;
  }

  private nextCursor(): Cursor {
    let earliest: Cursor | undefined;
    for (const cursor of [...this.rules, ...this.exrules]) if (!cursor.done && (!earliest || cursor.next < earliest.next)) earliest = cursor;
    return earliest as Cursor;
  }

  private covered(): number {
    let covered = Number.POSITIVE_INFINITY;
    for (const cursor of [...this.rules, ...this.exrules]) covered = Math.min(covered, cursor.next);
    return covered;
  }

  /** RDATEs and the rules' walls before `covered`, less EXRULE and EXDATE walls and whole excluded days. */
  private combine(): ExpansionState {
    const covered = this.capped ? Math.min(this.covered(), lastKept(this.rules)) : this.covered();
    const excluded = new Set<number>(this.parsed.exdates);
    for (const cursor of this.exrules) for (const wall of cursor.walls) excluded.add(wall);
    const days = this.parsed.excludedDays;
    const kept = (wall: number): boolean => wall >= this.series.startWall && wall < covered && !excluded.has(wall) && (days.size === 0 || !days.has(Math.floor(wall / DAY_MS) * DAY_MS));
    const only = this.rules.length === 1 && this.parsed.rdates.length === 1 ? this.rules[0] : undefined;
    let walls: number[];
    if (only) {
      // The usual series, one rule and no RDATE: its walls are in order already (and start at or after the start).
      walls = only.walls[0] === this.series.startWall ? only.walls.filter(kept) : [this.series.startWall, ...only.walls].filter(kept);
    } else {
      walls = [...new Set([...this.parsed.rdates, ...this.rules.flatMap((rule) => rule.walls)])].filter(kept).sort((a, b) => a - b);
    }
    return { walls, covered, complete: covered === Number.POSITIVE_INFINITY, capped: this.capped };
  }
}

/** The earliest of the rules' last walls: beyond it a capped expansion knows nothing for sure. */
function lastKept(rules: readonly Cursor[]): number {
  let last = Number.POSITIVE_INFINITY;
  for (const rule of rules) if (!rule.done) last = Math.min(last, rule.walls[rule.walls.length - 1] ?? rule.next);
  return last;
}

/**
 * The same recurrence expanded from `fromWall` on instead of from its start, when that gives the same instances
 * there: a sub-daily rule (hourly, minutely, secondly) without COUNT walks a fixed grid of INTERVAL steps from its
 * start, so it may start again at the grid point at or before `fromWall` (each period is filtered on its own). Daily
 * and longer rules are kept (a series of a century has some tens of thousands of them). Undefined when a sub-daily
 * rule counts (the COUNT-th instance depends on every earlier one): such a series is expanded from its start.
 */
export function recurrenceFrom(parsed: ParsedRecurrence, fromWall: number): ParsedRecurrence | undefined {
  const shift = (options: ParsedOptions): ParsedOptions | undefined => {
    if (options.freq <= RRule.DAILY) return options;
    if (options.count !== null) return undefined;
    const start = options.dtstart.getTime();
    if (fromWall <= start) return options;
    const unitMs = options.freq === RRule.HOURLY ? HOUR_MS : options.freq === RRule.MINUTELY ? MINUTE_MS : 1000;
    const origin = start - (start % unitMs);
    const stepMs = unitMs * options.interval;
    return { ...options, dtstart: new Date(origin + Math.floor((fromWall - origin) / stepMs) * stepMs) };
  };
  const rules = parsed.rules.map(shift);
  const exrules = parsed.exrules.map(shift);
  if (rules.some((rule) => rule === undefined) || exrules.some((rule) => rule === undefined)) return undefined;
  return { ...parsed, rules: rules as ParsedOptions[], exrules: exrules as ParsedOptions[] };
}

/** A one-off synchronous expansion up to `untilWall`, with a request's budget (tests and small series). */
export function expandSync(parsed: ParsedRecurrence, series: SeriesStart, untilWall: number, sliceTimeMs = SLICE_TIME_MS): ExpansionState {
  const state = new SeriesExpansion(parsed, series, sliceTimeMs).extendSync(untilWall, { candidates: REQUEST_BUDGET });
  return { ...state, walls: state.walls.filter((wall) => wall <= untilWall) };
}
