/**
 * The user's Calendar time zone (settings.get `timezone`), asked once per account: until it is known, and when it
 * cannot be read (then it is asked again next time), the zone Desk's clock remembers from the last time (the machine's
 * when never known), so a failed read never moves times away from what the views show. Desk's clock follows the first
 * account's; another account's Agenda (several signed in) has a zone of its own that the clock does not follow.
 */
import { errorMessage } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { CalendarApi } from './port';
import { isValidTimeZone, systemTimeZone } from './time';

export class CalendarTimeZone {
  private zone: Promise<string> | undefined;
  private knownZone: string;

  constructor(private readonly desk: Pick<DeskContext, 'clock' | 'log'>, private readonly api: () => Pick<CalendarApi, 'getSetting'>, private readonly options: { readonly followedByClock?: boolean } = {}) {
    this.knownZone = isValidTimeZone(desk.clock.timeZone) ? desk.clock.timeZone : systemTimeZone();
  }

  get(): Promise<string> {
    this.zone ??= this.api().getSetting('timezone').then((setting) => {
      const zone = isValidTimeZone(setting.value) ? setting.value : systemTimeZone();
      this.knownZone = zone;
      if (this.options.followedByClock !== false) this.desk.clock.setTimeZone(zone);
      return zone;
    }, (error: unknown) => {
      this.zone = undefined;
      this.desk.log.warn(`Calendar: the time zone setting could not be read (${errorMessage(error)}); using ${this.knownZone}`);
      return this.knownZone;
    });
    return this.zone;
  }

  /** The zone as last known, without waiting (the status bar's countdown). */
  get known(): string {
    return this.knownZone;
  }

  /** Another account or backend: ask again. */
  forget(): void {
    this.zone = undefined;
  }
}
