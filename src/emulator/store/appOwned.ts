/**
 * What each OAuth client ("app") created, durable in the store: the narrow scopes (Drive's `drive.file`,
 * Calendar's `calendar.app.created`) reach only these.
 */
import type { Collection, Store } from './store';

export class AppOwnedIds {
  private readonly records: Collection<{ appId: string; id: string }>;

  /** `collection` names what is kept, e.g. `drive.appFiles`. */
  constructor(store: Store, collection: string) {
    this.records = store.collection(collection);
  }

  add(appId: string, id: string): void {
    this.records.set(`${appId}\n${id}`, { appId, id });
  }

  has(appId: string, id: string): boolean {
    return this.records.has(`${appId}\n${id}`);
  }
}
