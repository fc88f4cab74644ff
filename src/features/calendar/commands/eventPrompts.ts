/** What the event commands ask: a time ("tomorrow 15:00"), a length, and the new value of one field of an event. */
import type * as vscode from 'vscode';
import type { Draft } from '../../../core/ui/drafts';
import type { CalendarEvent, EventWrite } from '../../../shared/schemas/calendar';
import { occurrenceOf } from '../tree/model';
import { eventTitle } from '../tree/presentation';
import { clockTime, dateKey, MINUTE_MS } from '../time';
import type { CalendarCommandContext } from './context';
import { describeWhen, eventTimes, parseDuration, parseReminderMinutes, parseWhen, recurrenceChoices, When, whenHelp } from './when';

export type EditField = 'title' | 'time' | 'location' | 'description' | 'attendees' | 'reminders' | 'recurrence';

/** The draft of Edit Event for one field of one event (dropped when that change is saved). */
export function editDraftKey(calendarId: string, eventId: string, field: EditField): string {
  return `edit-event/${calendarId}/${eventId}/${field}`;
}

export class EventPrompts {
  constructor(private readonly context: CalendarCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  /**
   * An input step of a dialog with a draft: it starts with the text left unsaved last time (its prompt says so), else
   * the item's own; what is typed is kept as it is typed, so Escape on this or a later step loses nothing.
   */
  async askStep(title: string, draft: Draft, field: string, prompt: string, validate?: (text: string) => string | vscode.InputBoxValidationMessage | undefined, placeHolder?: string): Promise<string | undefined> {
    return draft.ask(field, prompt, this.context.desk.vs.l10n.t, (box) => this.context.prompts.ask(title, box.prompt, box.value, box.validateInput, placeHolder), validate);
  }

  /** The "When?" step (the draft's `when` field). */
  async askWhen(title: string, draft: Draft): Promise<Exclude<When, { kind: 'invalid' }> | undefined> {
    const zone = await this.context.timeZone();
    const now = this.context.now();
    const vs = this.context.desk.vs;
    const today = dateKey(now, zone);
    const answer = await this.askStep(title, draft, 'when', this.t('When? ({0})', whenHelp(today, vs.l10n.t)), (text) => {
      const when = parseWhen(text, now, zone, vs.l10n.t);
      // What the words resolve to, in the Calendar zone, so "fri 3" is seen to be 03:00 before it is saved.
      return when.kind === 'invalid' ? when.message : { message: describeWhen(when, today, vs.l10n.t, vs.env.language), severity: vs.InputBoxValidationSeverity.Info };
    });
    if (answer === undefined) return undefined;
    const when = parseWhen(answer, now, zone, this.context.desk.vs.l10n.t);
    return when.kind === 'invalid' ? undefined : when;
  }

  /** The "How long?" step (the draft's `duration` field). */
  async askDuration(title: string, draft: Draft): Promise<number | undefined> {
    const answer = await this.askStep(title, draft, 'duration', this.t('How long? (e.g. 30m, 1h, 1h30)'), (text) => (parseDuration(text) === undefined ? this.t('Enter a length such as 45m, 1h or 1h30.') : undefined));
    return answer === undefined ? undefined : parseDuration(answer);
  }

  /** The patch for one field, or undefined when the user cancelled or changed nothing. What was typed stays in the draft `editDraftKey` names until it is saved. */
  async askChange(field: EditField, base: CalendarEvent, shown: CalendarEvent, calendarId = ''): Promise<EventWrite | undefined> {
    const title = this.t('Edit "{0}"', eventTitle(base, this.context.desk.vs.l10n.t));
    const zone = await this.context.timeZone();
    const occurrence = occurrenceOf('', shown, zone);
    // The time as the Agenda shows it, in the zone the step reads it in: accepting it leaves the event where it is.
    const when = occurrence ? (occurrence.allDay ? occurrence.startDate ?? '' : `${dateKey(occurrence.start, zone)} ${clockTime(occurrence.start, zone)}`) : '';
    const length = occurrence && !occurrence.allDay ? Math.max(1, Math.round((occurrence.end - occurrence.start) / MINUTE_MS)) : 60;
    const draft = this.context.drafts.open(editDraftKey(calendarId, base.id, field), {
      title: base.summary ?? '',
      location: base.location ?? '',
      description: base.description ?? '',
      attendees: (base.attendees ?? []).map((attendee) => attendee.email).filter(Boolean).join(', '),
      reminders: base.reminders?.useDefault === false ? (base.reminders.overrides ?? []).map((reminder) => String(reminder.minutes ?? 0)).join(', ') : 'default',
      when,
      duration: `${length}m`,
    });
    switch (field) {
      case 'title': {
        const summary = await this.askStep(title, draft, 'title', this.t('Title'), (text) => (text.trim() ? undefined : this.t('Enter a title.')));
        return summary === undefined || summary === base.summary ? undefined : { summary };
      }
      case 'location': {
        const location = await this.askStep(title, draft, 'location', this.t('Location (empty to remove)'));
        return location === undefined ? undefined : { location: location || null };
      }
      case 'description': {
        const description = await this.askStep(title, draft, 'description', this.t('Description (empty to remove)'));
        return description === undefined ? undefined : { description: description || null };
      }
      case 'time': {
        const answer = await this.askWhen(title, draft);
        if (!answer) return undefined;
        const duration = answer.kind === 'timed' ? await this.askDuration(title, draft) : 24 * 60;
        return duration === undefined ? undefined : eventTimes(answer, duration, zone);
      }
      case 'attendees': {
        const answer = await this.askStep(title, draft, 'attendees', this.t('Attendees: email addresses, separated by commas'), (text) => {
          const bad = text.split(',').map((part) => part.trim()).filter(Boolean).find((part) => !/^[^@\s]+@[^@\s]+$/.test(part));
          return bad ? this.t('"{0}" is not an email address.', bad) : undefined;
        });
        if (answer === undefined) return undefined;
        const emails = [...new Set(answer.split(',').map((part) => part.trim()).filter(Boolean))];
        // Attendees already there keep their answers; new ones start without one. Looked up by address, not searched
        // for each one typed: 20,000 attendees took 3.3 s.
        const existing = new Map<string, NonNullable<typeof base.attendees>[number]>();
        for (const attendee of base.attendees ?? []) {
          const key = attendee.email?.toLowerCase();
          if (key !== undefined && !existing.has(key)) existing.set(key, attendee);
        }
        return { attendees: emails.map((email) => existing.get(email.toLowerCase()) ?? { email }) };
      }
      case 'reminders': {
        const answer = await this.askStep(title, draft, 'reminders', this.t('Popup reminders, minutes before (e.g. 10, 30); "default" for the calendar\'s; empty for none'), (text) => (text.trim().toLowerCase() === 'default' || parseReminderMinutes(text) ? undefined : this.t('Enter minutes such as 10, 30, or "default".')));
        if (answer === undefined) return undefined;
        if (answer.toLowerCase() === 'default') return { reminders: { useDefault: true } };
        return { reminders: { useDefault: false, overrides: (parseReminderMinutes(answer) ?? []).map((minutes) => ({ method: 'popup' as const, minutes })) } };
      }
      case 'recurrence': {
        const series = occurrenceOf('', base, zone);
        const date = series ? (series.startDate ?? dateKey(series.start, zone)) : dateKey(this.context.now(), zone);
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
