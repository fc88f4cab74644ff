// A channel's hover in the Channels view reads in words: what is watched, where the notifications go, when the
// channel expires (as Desk writes dates) and what arrived; the channel's ids and the resource's address come last,
// in small print, for a developer.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { DeskClock } from '../../../../src/core/text/clock';
import { ChannelBook, ChannelRecord, WatchTarget } from '../../../../src/features/channels/model';
import { channelTooltip } from '../../../../src/features/channels/tree/presentation';
import { ChannelsTreeProvider } from '../../../../src/features/channels/tree/treeProvider';
import { english as t } from '../../../../src/shared/l10n';
import { fakeVscode } from '../../../support/fakeVscode';
import { MapMemento } from '../../../support/memento';

const NOW = Date.parse('2026-11-26T14:00:00Z');
const HOUR = 3_600_000;
const RECEIVER = 'https://127.0.0.1:48123/desk/notifications';

function record(target: WatchTarget, resourceUri: string, overrides: Partial<ChannelRecord> = {}): ChannelRecord {
  return { id: 'desk-3f2a9c', resourceId: 'res-81ac', resourceUri, target, address: 'https://hooks.example.com/google', expiration: NOW + 6 * HOUR, created: NOW - HOUR, messages: 0, ...overrides };
}

/** The hover as the user reads it: markdown's escapes, bold and the small print's tags taken off. */
function read(markdown: string): { words: string; smallPrint: string } {
  const [words = '', smallPrint = ''] = markdown.split('\n---\n');
  const plain = (text: string) => text.replace(/\\(.)/g, '$1').replace(/\*\*/g, '').replace(/<\/?small>/g, '').replace(/ {2}\n/g, '\n').trim();
  return { words: plain(words), smallPrint: plain(smallPrint) };
}

describe('Channels: a channel\'s hover', () => {
  const clock = new DeskClock('en-GB', undefined, 'Europe/Berlin');

  // One of each kind of channel Desk can make, with the resource address its service answers.
  const kinds: Array<{ target: WatchTarget; resourceUri: string; watched: string; extra?: string }> = [
    { target: { kind: 'driveChanges' }, resourceUri: 'https://www.googleapis.com/drive/v2/changes?alt=json&pageToken=42', watched: 'Changes to your Drive' },
    { target: { kind: 'driveFile', fileId: '1AbCdEf', title: 'Q3 budget.xlsx' }, resourceUri: 'https://www.googleapis.com/drive/v2/files/1AbCdEf?alt=json', watched: 'Changes to “Q3 budget.xlsx” in your Drive' },
    { target: { kind: 'driveFile', fileId: '1AbCdEf' }, resourceUri: 'https://www.googleapis.com/drive/v2/files/1AbCdEf?alt=json', watched: 'Changes to a file in your Drive' },
    { target: { kind: 'calendarEvents', calendarId: 'alice@example.com' }, resourceUri: 'https://www.googleapis.com/calendar/v3/calendars/alice@example.com/events?alt=json', watched: 'Events of calendar alice@example.com' },
    { target: { kind: 'calendarEvents', calendarId: 'primary' }, resourceUri: 'https://www.googleapis.com/calendar/v3/calendars/primary/events?alt=json', watched: 'Events of your primary calendar' },
    { target: { kind: 'calendarList' }, resourceUri: 'https://www.googleapis.com/calendar/v3/users/me/calendarList?alt=json', watched: 'Changes to your list of calendars' },
    { target: { kind: 'calendarSettings' }, resourceUri: 'https://www.googleapis.com/calendar/v3/users/me/settings?alt=json', watched: 'Changes to your Calendar settings' },
    { target: { kind: 'calendarAcl', calendarId: 'team@example.com' }, resourceUri: 'https://www.googleapis.com/calendar/v3/calendars/team@example.com/acl?alt=json', watched: 'Who calendar team@example.com is shared with' },
    { target: { kind: 'calendarAcl', calendarId: 'primary' }, resourceUri: 'https://www.googleapis.com/calendar/v3/calendars/primary/acl?alt=json', watched: 'Who your primary calendar is shared with' },
    { target: { kind: 'directoryUsers', domain: 'example.com' }, resourceUri: 'https://admin.googleapis.com/admin/directory/v1/users?domain=example.com&alt=json', watched: 'Directory users of example.com' },
    { target: { kind: 'directoryUsers', customer: 'my_customer', event: 'add' }, resourceUri: 'https://admin.googleapis.com/admin/directory/v1/users?customer=my_customer&event=add&alt=json', watched: 'Directory users of your organization', extra: 'Only when: A user is added' },
    { target: { kind: 'directoryUsers', customer: 'C03az79cb' }, resourceUri: 'https://admin.googleapis.com/admin/directory/v1/users?customer=C03az79cb&alt=json', watched: 'Directory users of customer C03az79cb' },
  ];

  for (const kind of kinds) {
    it(`${kind.watched}: leads with what is watched, the ids and the resource's address only in the small print`, () => {
      const channel = record(kind.target, kind.resourceUri);
      const { words, smallPrint } = read(channelTooltip(channel, t, clock, NOW));
      assert.deepEqual(words.split('\n'), [
        kind.watched,
        '',
        ...(kind.extra ? [kind.extra] : []),
        'Notifications go to `https://hooks.example.com/google`',
        `Expires ${clock.dateTime(channel.expiration)}.`,
        'No notification has reached Desk yet.',
      ]);
      for (const id of [channel.id, channel.resourceId, kind.resourceUri]) {
        assert.ok(!words.includes(id), `"${id}" is not in the words`);
        assert.ok(smallPrint.includes(`\`${id}\``), `"${id}" is in the small print: ${smallPrint}`);
      }
      if (kind.target.kind === 'driveFile') assert.ok(smallPrint.includes('file `1AbCdEf`'));
    });
  }

  it('says Desk\'s own channel goes to the built-in receiver, with its token, and counts what arrived', () => {
    const channel = record({ kind: 'driveChanges' }, 'https://www.googleapis.com/drive/v2/changes?alt=json', { address: RECEIVER, token: 'secret', feed: 'drive.changes', messages: 3, lastMessageAt: NOW - 5 * 60_000 });
    const { words } = read(channelTooltip(channel, t, clock, NOW, RECEIVER));
    assert.deepEqual(words.split('\n'), [
      'Changes to your Drive',
      '',
      'Made by Desk so its live changes arrive by push: renewed automatically, stopped with the receiver.',
      'Notifications go to Desk\'s built-in receiver.',
      'Each notification carries your token.',
      `Expires ${clock.dateTime(channel.expiration)}.`,
      `3 notifications arrived, the last at ${clock.dateTime(NOW - 5 * 60_000)}.`,
    ]);
    assert.ok(!words.includes('secret'), 'the token itself is never shown');
  });

  it('says when an expired channel expired, in the user\'s zone and 24-hour clock', () => {
    const channel = record({ kind: 'calendarList' }, 'https://www.googleapis.com/calendar/v3/users/me/calendarList?alt=json', { expiration: NOW - HOUR, messages: 1, lastMessageAt: NOW - 2 * HOUR });
    const { words } = read(channelTooltip(channel, t, clock, NOW));
    assert.ok(words.includes(`Expired ${clock.dateTime(NOW - HOUR)}.`), words);
    // 13:00 UTC is 14:00 in Berlin.
    assert.match(words, /Expired .*14:00\./);
    assert.ok(words.includes(`1 notification arrived, at ${clock.dateTime(NOW - 2 * HOUR)}.`), words);
  });

  it('is what the view shows on hover: markdown whose small print may use HTML, knowing the receiver\'s address', async () => {
    const book = new ChannelBook(new MapMemento());
    book.use('emulator', 'alice');
    await book.add(record({ kind: 'calendarEvents', calendarId: 'alice@example.com' }, 'https://www.googleapis.com/calendar/v3/calendars/alice@example.com/events?alt=json', { address: RECEIVER }));
    const vs = fakeVscode() as unknown as typeof vscode;
    const tree = new ChannelsTreeProvider(vs, book, clock, () => RECEIVER, () => NOW);
    const [node] = tree.getChildren();
    assert.ok(node);
    const hover = tree.resolveTreeItem(tree.getTreeItem(node), node).tooltip as vscode.MarkdownString;
    assert.equal(hover.supportHtml, true);
    const { words } = read(hover.value);
    assert.ok(words.startsWith('Events of calendar alice@example.com\n'), words);
    assert.ok(words.includes('Notifications go to Desk\'s built-in receiver.'), words);
    tree.dispose();
  });
});
