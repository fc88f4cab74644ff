/**
 * Sharing a calendar (acl.list / insert / patch / delete): the current rules in a quick pick, "Share with someone…"
 * on top; each role is explained in the pick's description, so "reader" vs "freeBusyReader" needs no manual.
 */
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { AclRule } from '../../../shared/schemas/calendar';
import { calendarName, CalendarTreeNode } from '../tree/model';
import type { CalendarCommandContext } from './context';

export type ShareRole = 'freeBusyReader' | 'reader' | 'writer' | 'owner';

export class SharingCommands {
  constructor(private readonly context: CalendarCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  private roleItems(current?: string) {
    const roles: Array<[ShareRole, string, string]> = [
      ['freeBusyReader', this.t('See only free/busy'), this.t('Sees when you are busy, never what the events are')],
      ['reader', this.t('See all event details'), this.t('Reads every event except private ones')],
      ['writer', this.t('Make changes to events'), this.t('Adds, changes and deletes events, sees private ones')],
      ['owner', this.t('Make changes and manage sharing'), this.t('Everything a writer can, and shares the calendar')],
    ];
    return roles.map(([role, label, detail]) => ({ label, description: role === current ? this.t('{0} (current)', role) : role, detail, value: role }));
  }

  /** acl rules of the calendar → add, change a role, or remove. With `request`, runs without prompts (tests, other commands). */
  async share(node?: CalendarTreeNode, request?: { email: string; role: ShareRole | 'none' }): Promise<AclRule | boolean | undefined> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Share which calendar?'), (candidate) => candidate.accessRole === 'owner');
    if (!entry) return undefined;
    const api = this.context.api();
    const rules: AclRule[] = [];
    for await (const rule of api.allAclRules(entry.id)) rules.push(rule);
    if (request) {
      const existing = rules.find((rule) => rule.scope?.type === 'user' && rule.scope.value?.toLowerCase() === request.email.toLowerCase());
      if (request.role === 'none') {
        if (!existing) return false;
        await api.deleteAclRule(entry.id, existing.id);
        return true;
      }
      return existing ? api.patchAclRule(entry.id, existing.id, { role: request.role }) : api.insertAclRule(entry.id, { role: request.role, scope: { type: 'user', value: request.email } });
    }
    type Choice = { kind: 'add' } | { kind: 'rule'; rule: AclRule };
    const choice = await this.context.prompts.pick<Choice>([
      { label: `$(person-add) ${this.t('Share with someone…')}`, value: { kind: 'add' } },
      ...rules.map((rule) => ({
        label: rule.scope?.type === 'default' ? this.t('Everyone (public)') : rule.scope?.value ?? rule.id,
        description: `${rule.role ?? ''} · ${rule.scope?.type ?? ''}`,
        value: { kind: 'rule' as const, rule },
      })),
    ], this.t('Sharing of "{0}"', calendarName(entry)));
    if (!choice) return undefined;
    if (choice.kind === 'add') {
      const email = await this.context.prompts.ask(this.t('Share "{0}"', calendarName(entry)), this.t('Email address of the person or group'), '', (text) => (/^[^@\s]+@[^@\s]+$/.test(text.trim()) ? undefined : this.t('Enter an email address.')));
      if (!email) return undefined;
      const role = await this.context.prompts.pick(this.roleItems(), this.t('What may {0} do?', email));
      if (!role) return undefined;
      return attempt(this.context.desk, () => api.insertAclRule(entry.id, { role, scope: { type: 'user', value: email } }), { action: this.t('Could not share with {0}', email), retry: true });
    }
    const { rule } = choice;
    const who = rule.scope?.value ?? this.t('everyone');
    if (rule.role === 'owner' && rule.scope?.value === entry.id) {
      void this.context.desk.vs.window.showInformationMessage(this.t('This is the calendar\'s own owner; that rule cannot change.'));
      return undefined;
    }
    const action = await this.context.prompts.pick<'change' | 'remove'>([
      { label: `$(edit) ${this.t('Change what {0} may do', who)}`, value: 'change' },
      { label: `$(trash) ${this.t('Stop sharing with {0}', who)}`, value: 'remove' },
    ], who);
    if (action === 'change') {
      const role = await this.context.prompts.pick(this.roleItems(rule.role), this.t('What may {0} do?', who));
      if (!role || role === rule.role) return undefined;
      return attempt(this.context.desk, () => api.patchAclRule(entry.id, rule.id, { role }, rule.etag ? { ifMatch: rule.etag } : {}), { action: this.t('Could not change the sharing'), retry: true });
    }
    if (action === 'remove') {
      if (!(await confirmModal(this.context.desk.vs, this.t('Stop sharing "{0}" with {1}?', calendarName(entry), who), this.t('They lose access at once.'), this.t('Stop Sharing')))) return undefined;
      await api.deleteAclRule(entry.id, rule.id);
      return true;
    }
    return undefined;
  }
}
