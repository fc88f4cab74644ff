/**
 * The next event of today in the status bar ("in 12 min: Standup", else "No more events today"), redrawn at every minute from the synced events (no
 * network), and a notification when a popup reminder is due, with "Open" and, for events with a call, "Join".
 * Started only once signed in (after the first sign-in check), stopped on sign-out.
 */
import type * as vscode from 'vscode';
import type { EventReminder } from '../../../shared/schemas/calendar';
import { Disposable } from '../../../core/disposable';
import type { Clock } from '../../../core/sync/poller';
import { joinLinkOf, Occurrence } from '../tree/model';
import { eventTitle } from '../tree/presentation';
import { clockTime, MINUTE_MS } from '../time';
import { countdownText, dueReminders, nextOccurrence } from './upcoming';
import { CALENDAR_COMMAND } from '../../../config/commandIds';

/** Another signed-in account's calendars (several accounts): its events, reminders and whose they are. */
export interface OtherAccountEvents {
  readonly account: string;
  occurrences(): Occurrence[];
  defaultReminders(calendarId: string): readonly EventReminder[];
  whose(): string | undefined;
}

/** One account's events as the item weighs them (`account` undefined: the first account's, the source's own). */
interface AccountEvents {
  readonly account: string | undefined;
  occurrences(): Occurrence[];
  defaultReminders(calendarId: string): readonly EventReminder[];
  whose(): string | undefined;
}

export interface NextEventSource {
  occurrences(): Occurrence[];
  timeZone(): string;
  defaultReminders(calendarId: string): readonly EventReminder[];
  /** Opens or joins an event; `account` is the other account it belongs to (undefined: the first account's). */
  open(occurrence: Occurrence, account?: string): Promise<void>;
  join(occurrence: Occurrence, account?: string): Promise<void>;
  /** The other signed-in accounts' calendars (several accounts): the soonest event of all is shown, with whose. */
  others?(): readonly OtherAccountEvents[];
  /** Runs at every minute tick (the feature redraws the tree when the day changes). */
  onMinute?(): void;
  /** Whether reminder notifications are on (the desk.calendar.reminders setting). */
  enabled?(): boolean;
  /** Whose calendars these are, when several accounts are signed in (undefined with one: the item reads as today). */
  whose?(): string | undefined;
}

export class NextEventStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private timer: unknown;
  private running = false;
  private lastTick = 0;
  private readonly notified = new Set<string>();
  /** The reminders shown so far (tests read them). */
  readonly shown: Array<{ key: string; message: string }> = [];
  current: Occurrence | undefined;
  /** The other account `current` belongs to (undefined: the first account's). */
  currentAccount: string | undefined;

  constructor(private readonly vs: typeof vscode, readonly source: NextEventSource, private readonly clock: Clock) {
    super();
    this.item = this._register(vs.window.createStatusBarItem('desk.calendar.next', vs.StatusBarAlignment.Left, 50));
    this.item.name = vs.l10n.t('Desk: Next Event');
    this.item.command = CALENDAR_COMMAND.openNextEvent;
    this._register({ dispose: () => { this.stop(); } });
  }

  get text(): string {
    return this.item.text;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastTick = this.clock.now();
    this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.current = undefined;
    this.currentAccount = undefined;
    this.item.hide();
  }

  /** Redraws now (after a sync brought new events) without waiting for the minute. */
  update(): void {
    if (!this.running) return;
    const now = this.clock.now();
    // Every signed-in account's events: the soonest of all is shown, saying whose.
    const sets = this.accountEvents();
    const tagged = sets.flatMap((set) => set.occurrences().map((occurrence) => ({ occurrence, set })));
    const next = nextOccurrence(tagged.map((entry) => entry.occurrence), now, this.source.timeZone());
    const owner = next ? tagged.find((entry) => entry.occurrence === next)?.set : undefined;
    this.current = next;
    this.currentAccount = owner?.account;
    const t = this.vs.l10n.t;
    // Several accounts signed in: whose calendars the item speaks of (nobody's when none has an event left today).
    const whose = owner ? owner.whose() : sets.length > 1 ? undefined : this.source.whose?.();
    const owned = (words: string): string => (whose ? t('{0} · {1}', words, whose) : words);
    const ownedTooltip = (text: string): string => (whose ? `${text}\n${t('Calendars of {0}.', whose)}` : text);
    if (!next) {
      // Always there while signed in, saying so when the day holds nothing more (a click opens the Calendar view).
      const words = owned(t('No more events today'));
      this.item.text = `$(calendar) ${words}`;
      this.item.tooltip = ownedTooltip(t('No more timed events today in the calendars you show ({0}). Click to open the Calendar view.', this.source.timeZone()));
      this.item.accessibilityInformation = { label: words };
      this.item.show();
      return;
    }
    const words = owned(countdownText(next, now, t));
    this.item.text = `$(calendar) ${words}`;
    this.item.tooltip = ownedTooltip(t('{0} at {1} ({2}). Click for details.', eventTitle(next.event, t), clockTime(next.start, this.source.timeZone()), this.source.timeZone()));
    this.item.accessibilityInformation = { label: words };
    this.item.show();
  }

  /** The minute tick: status text, then the reminders that came due since the last tick. */
  tick(): void {
    if (!this.running) return;
    const now = this.clock.now();
    this.update();
    this.source.onMinute?.();
    // Each account's reminders fire, each saying whose when several are signed in.
    for (const set of this.source.enabled?.() === false ? [] : this.accountEvents()) {
      for (const reminder of dueReminders(set.occurrences(), (id) => set.defaultReminders(id), this.lastTick, now)) {
        const key = `${set.account ?? ''}/${reminder.key}`;
        if (this.notified.has(key)) continue;
        this.notified.add(key);
        void this.notify(reminder.occurrence, reminder.minutes, set);
      }
    }
    this.lastTick = now;
    // Aligned to the next whole minute, so "in 12 min" changes when the clock does.
    const delay = MINUTE_MS - (now % MINUTE_MS) + 50;
    this.timer = this.clock.setTimeout(() => { this.tick(); }, delay);
  }

  /** The first account's events (the source's own), then each other signed-in account's. */
  private accountEvents(): AccountEvents[] {
    const source = this.source;
    const first: AccountEvents = { account: undefined, occurrences: () => source.occurrences(), defaultReminders: (id) => source.defaultReminders(id), whose: () => source.whose?.() };
    return [first, ...(source.others?.() ?? [])];
  }

  private async notify(occurrence: Occurrence, minutes: number, set: AccountEvents): Promise<void> {
    const vs = this.vs;
    const title = eventTitle(occurrence.event, vs.l10n.t);
    const at = clockTime(occurrence.start, this.source.timeZone());
    const said = minutes === 0 ? vs.l10n.t('"{0}" starts now ({1}).', title, at) : vs.l10n.t('"{0}" starts in {1} min ({2}).', title, minutes, at);
    // Several accounts signed in: whose event it is.
    const whose = set.whose();
    const message = whose ? vs.l10n.t('{0} · {1}', said, whose) : said;
    this.shown.push({ key: `${occurrence.calendarId}/${occurrence.event.id}`, message });
    const open = vs.l10n.t('Open');
    const join = vs.l10n.t('Join');
    const actions = joinLinkOf(occurrence.event) ? [open, join] : [open];
    const choice = await vs.window.showInformationMessage(message, ...actions);
    if (choice === open) await this.source.open(occurrence, set.account);
    else if (choice === join) await this.source.join(occurrence, set.account);
  }
}
