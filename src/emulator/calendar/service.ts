/**
 * The Calendar emulator's model set for one store: calendars, ACLs, calendar lists, events, settings and free/busy
 * share one change counter (sync tokens compare its numbers) and reach each other through this object, so each
 * resource's model stays in its own file without import cycles.
 */
import { channelRegistryFor, ChannelRegistry } from '../core/channels';
import type { Collection, Store } from '../store/store';
import { AclModel } from './acl/model';
import { CalendarListModel } from './calendarList/model';
import { CalendarsModel } from './calendars/model';
import { EventsModel } from './events/model';
import { FreeBusyModel } from './freeBusy/model';
import { SettingsModel } from './settings/model';

export class CalendarService {
  readonly calendars: CalendarsModel;
  readonly acl: AclModel;
  readonly calendarList: CalendarListModel;
  readonly events: EventsModel;
  readonly settings: SettingsModel;
  readonly freeBusy: FreeBusyModel;
  readonly channels: ChannelRegistry;
  private readonly counter: Collection<{ seq: number }>;
  private readonly floors: Collection<{ seq: number }>;
  private seq: number;

  constructor(readonly store: Store, readonly now: () => number) {
    this.counter = store.collection('calendar.meta');
    this.floors = store.collection('calendar.syncFloors');
    this.seq = this.counter.get('seq')?.seq ?? 0;
    this.channels = channelRegistryFor({ store, now });
    this.settings = new SettingsModel(this);
    this.calendars = new CalendarsModel(this);
    this.acl = new AclModel(this);
    this.calendarList = new CalendarListModel(this);
    this.events = new EventsModel(this);
    this.freeBusy = new FreeBusyModel(this);
  }

  /**
   * A watched Calendar collection (`events/<calendarId>`, `acl/<calendarId>`, `calendarList/<userId>`) changed: its
   * channels hear `exists`, or `not_exists` once it is gone (Calendar's states). Waiting `exists` messages coalesce.
   */
  noteChange(key: string, state: 'exists' | 'not_exists' = 'exists'): void {
    this.channels.publish(`calendar/${key}`, state, { coalesce: true });
  }

  /** The number of the next change; sync tokens issued before it see the change, those after do not. */
  nextSeq(): number {
    this.seq += 1;
    this.counter.set('seq', { seq: this.seq });
    return this.seq;
  }

  currentSeq(): number {
    return this.seq;
  }

  /** Tokens older than a scope's floor are 410: the deletions they would need to report were purged. */
  syncFloor(scope: string): number {
    return this.floors.get(scope)?.seq ?? 0;
  }

  raiseSyncFloor(scope: string, seq: number): void {
    if (seq > this.syncFloor(scope)) this.floors.set(scope, { seq });
  }
}

/** One service per store: the routes and the demo seed must share its in-memory indexes. */
const services = new WeakMap<Store, CalendarService>();

export function calendarServiceFor(deps: { store: Store; now: () => number }): CalendarService {
  let service = services.get(deps.store);
  if (!service) {
    service = new CalendarService(deps.store, deps.now);
    services.set(deps.store, service);
  }
  return service;
}
