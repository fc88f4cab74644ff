// The Drive side of push: the poller asks for push only with the setting on, learns whether push already works when it
// starts (the Channels feature may have loaded first), and hears notifications and push going on and off.
import * as assert from 'node:assert/strict';
import { PushHub } from '../../../../../src/core/sync/push';
import { DRIVE_CHANGES_FEED, DrivePushLink, PushablePoller } from '../../../../../src/features/drive/changes/push';

class RecordingPoller implements PushablePoller {
  readonly calls: string[] = [];
  setPushActive(active: boolean): void {
    this.calls.push(`active ${String(active)}`);
  }
  pushNotified(): void {
    this.calls.push('notified');
  }
}

describe('Drive changes: the push link', () => {
  it('asks for push while a poller runs and the setting is on, and gives it up otherwise', () => {
    const hub = new PushHub();
    let enabled = true;
    let poller: RecordingPoller | undefined;
    const link = new DrivePushLink(hub, () => poller, () => enabled);
    assert.equal(hub.isWanted(DRIVE_CHANGES_FEED), false, 'no poller yet');
    poller = new RecordingPoller();
    link.attach(poller);
    assert.equal(hub.isWanted(DRIVE_CHANGES_FEED), true);
    enabled = false;
    link.settingChanged();
    assert.equal(hub.isWanted(DRIVE_CHANGES_FEED), false);
    enabled = true;
    link.settingChanged();
    link.detach();
    poller = undefined;
    assert.equal(hub.isWanted(DRIVE_CHANGES_FEED), false, 'a stopped poller wants nothing');
    link.dispose();
  });

  it('passes push state and notifications to the running poller, including push that worked before it started', () => {
    const hub = new PushHub();
    hub.setLive(DRIVE_CHANGES_FEED, true);
    const poller = new RecordingPoller();
    const link = new DrivePushLink(hub, () => poller, () => true);
    link.attach(poller);
    hub.notify(DRIVE_CHANGES_FEED);
    hub.notify('calendar.events');
    hub.setLive(DRIVE_CHANGES_FEED, false);
    hub.setLive(DRIVE_CHANGES_FEED, false);
    assert.deepEqual(poller.calls, ['active true', 'notified', 'active false']);
    link.dispose();
    hub.notify(DRIVE_CHANGES_FEED);
    assert.equal(poller.calls.length, 3, 'nothing after dispose');
  });
});
