/** What the event commands ask: a time ("tomorrow 15:00"), a length, and the new value of one field of an event. */
import type { CalendarEvent, EventWrite } from '../../../shared/schemas/calendar';
import { occurrenceOf } from '../tree/model';
import { eventTitle, timeRange } from '../tree/presentation';
import { dateKey, MINUTE_MS } from '../time';
import type { CalendarCommandContext } from './context';
import { describeWhen, eventTimes, parseDuration, parseReminderMinutes, parseWhen, recurrenceChoices, When, WHEN_HELP } from './when';

export type EditField = 'title' | 'time' | 'location' | 'description' | 'attendees' | 'reminders' | 'recurrence';

export class EventPrompts {
  constructor(private readonly context: CalendarCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  async askWhen(title: string, value: string): Promise<Exclude<When, { kind: 'invalid' }> | undefined> {
    const zone = await this.context.timeZone();
    const now = this.context.now();
    const vs = this.context.desk.vs;
    const today = dateKey(now, zone);
    const answer = await this.context.prompts.ask(title, this.t('When? ({0})', this.t(WHEN_HELP)), value, (text) => {
      const when = parseWhen(text, now, zone, vs.l10n.t);
      // What the words resolve to, in the Calendar zone, so "fri 3" is seen to be 03:00 before it is saved.
      return when.kind === 'invalid' ? when.message : { message: describeWhen(when, today, vs.l10n.t, vs.env.language), severity: vs.InputBoxValidationSeverity.Info };
    });
    if (answer === undefined) return undefined;
    const when = parseWhen(answer, now, zone, this.context.desk.vs.l10n.t);
    return when.kind === 'invalid' ? undefined : when;
  }

  async askDuration(title: string, value: string): Promise<number | undefined> {
    const answer = await this.context.prompts.ask(title, this.t('How long? (e.g. 30m, 1h, 1h30)'), value, (text) => (parseDuration(text) === undefined ? this.t('Enter a length such as 45m, 1h or 1h30.') : undefined));
    return answer === undefined ? undefined : parseDuration(answer);
  }

  /** The patch for one field, or undefined when the user cancelled or changed nothing. */
  async askChange(field: EditField, base: CalendarEvent, shown: CalendarEvent): Promise<EventWrite | undefined> {
    const title = this.t('Edit "{0}"', eventTitle(base, this.context.desk.vs.l10n.t));
    const zone = await this.context.timeZone();
    switch (field) {
      case 'title': {
        const summary = await this.context.prompts.ask(title, this.t('Title'), base.summary ?? '', (text) => (text.trim() ? undefined : this.t('Enter a title.')));
        return summary === undefined || summary === base.summary ? undefined : { summary };
      }
      case 'location': {
        const location = await this.context.prompts.ask(title, this.t('Location (empty to remove)'), base.location ?? '');
        return location === undefined ? undefined : { location: location || null };
      }
      case 'description': {
        const description = await this.context.prompts.ask(title, this.t('Description (empty to remove)'), base.description ?? '');
        return description === undefined ? undefined : { description: description || null };
      }
      case 'time': {
        const occurrence = occurrenceOf('', shown, zone);
        const current = occurrence ? (occurrence.allDay ? occurrence.startDate ?? '' : `${dateKey(occurrence.start, zone)} ${timeRange(occurrence, zone).slice(0, 5)}`) : '';
        const when = await this.askWhen(title, current);
        if (!when) return undefined;
        const length = occurrence && !occurrence.allDay ? Math.max(1, Math.round((occurrence.end - occurrence.start) / MINUTE_MS)) : 60;
        const duration = when.kind === 'timed' ? await this.askDuration(title, `${length}m`) : 24 * 60;
        return duration === undefined ? undefined : eventTimes(when, duration, zone);
      }
      case 'attendees': {
        const current = (base.attendees ?? []).map((attendee) => attendee.email).filter(Boolean).join(', ');
        const answer = await this.context.prompts.ask(title, this.t('Attendees: email addresses, separated by commas'), current, (text) => {
          const bad = text.split(',').map((part) => part.trim()).filter(Boolean).find((part) => !/^[^@\s]+@[^@\s]+$/.test(part));
          return bad ? this.t('"{0}" is not an email address.', bad) : undefined;
        });
        if (answer === undefined) return undefined;
        const emails = [...new Set(answer.split(',').map((part) => part.trim()).filter(Boolean))];
        // Attendees already there keep their answers; new ones start without one.
        return { attendees: emails.map((email) => base.attendees?.find((attendee) => attendee.email?.toLowerCase() === email.toLowerCase()) ?? { email }) };
      }
      case 'reminders': {
        const overrides = base.reminders?.useDefault === false ? (base.reminders.overrides ?? []).map((reminder) => String(reminder.minutes ?? 0)).join(', ') : 'default';
        const answer = await this.context.prompts.ask(title, this.t('Popup reminders, minutes before (e.g. 10, 30); "default" for the calendar\'s; empty for none'), overrides, (text) => (text.trim().toLowerCase() === 'default' || parseReminderMinutes(text) ? undefined : this.t('Enter minutes such as 10, 30, or "default".')));
        if (answer === undefined) return undefined;
        if (answer.toLowerCase() === 'default') return { reminders: { useDefault: true } };
        return { reminders: { useDefault: false, overrides: (parseReminderMinutes(answer) ?? []).map((minutes) => ({ method: 'popup' as const, minutes })) } };
      }
      case 'recurrence': {
        const occurrence = occurrenceOf('', base, zone);
        const date = occurrence ? (occurrence.startDate ?? dateKey(occurrence.start, zone)) : dateKey(this.context.now(), zone);
        const choices = recurrenceChoices(date, this.context.desk.vs.l10n.t, this.context.desk.vs.env.language);
        const currentRule = base.recurrence?.find((line) => line.startsWith('RRULE:'));
        const rule = await this.context.prompts.pick(choices.map((choice) => ({
          label: choice.label,
          description: choice.rule === currentRule || (!choice.rule && !currentRule) ? this.t('current') : '',
          value: { rule: choice.rule },
        })), this.t('Repeat "{0}"', eventTitle(base, this.context.desk.vs.l10n.t)));
        if (!rule) return undefined;
        return { recurrence: rule.rule ? [rule.rule, ...(base.recurrence ?? []).filter((line) => !line.startsWith('RRULE:'))] : [] };
      }
    }
  }
}
