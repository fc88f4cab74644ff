/**
 * Drive's live changes by push: the change poller asks for a changes.watch channel (through the context's push hub;
 * the Channels feature makes it when its built-in receiver runs) and, while that channel delivers, fetches on each
 * notification and otherwise keeps only a slow safety-net poll. No vscode: the setting is read through a callback.
 */
import type { PushHub } from '../../../core/sync/push';
import type { DisposableLike } from '../../../core/disposable';

/** The feed's name on the push hub; the Channels feature types its copy as this literal. */
export const DRIVE_CHANGES_FEED = 'drive.changes';
export type DriveChangesFeed = typeof DRIVE_CHANGES_FEED;

/** What the link steers: the change poller's push side (SyncPoller). */
export interface PushablePoller {
  setPushActive(active: boolean): void;
  pushNotified(): void;
}

export class DrivePushLink implements DisposableLike {
  private readonly subscription: DisposableLike;

  constructor(
    private readonly hub: PushHub,
    private readonly poller: () => PushablePoller | undefined,
    private readonly enabled: () => boolean,
  ) {
    this.subscription = hub.onEvent(DRIVE_CHANGES_FEED, (event) => {
      const target = this.poller();
      if (!target) return;
      if (event.kind === 'notified') target.pushNotified();
      else if (event.kind === 'live') target.setPushActive(event.live);
    });
  }

  /** A poller started: it learns whether push already works, and push is asked for if the setting allows. */
  attach(poller: PushablePoller): void {
    poller.setPushActive(this.hub.isLive(DRIVE_CHANGES_FEED));
    this.hub.setWanted(DRIVE_CHANGES_FEED, this.enabled());
  }

  /** The poller stopped (sign-out, backend switch): no channel is wanted for it any more. */
  detach(): void {
    this.hub.setWanted(DRIVE_CHANGES_FEED, false);
  }

  /** The setting changed: asks for (or gives up) the channel while a poller runs. */
  settingChanged(): void {
    if (this.poller()) this.hub.setWanted(DRIVE_CHANGES_FEED, this.enabled());
  }

  get live(): boolean {
    return this.hub.isLive(DRIVE_CHANGES_FEED);
  }

  dispose(): void {
    this.subscription.dispose();
    this.hub.setWanted(DRIVE_CHANGES_FEED, false);
  }
}
