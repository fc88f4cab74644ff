/**
 * The comments of the files Desk shows, loaded on demand and kept briefly, shared by the editor's threads and the
 * tree's Comments nodes so one change (a reply, a resolve, a reload) reaches both. No vscode.
 */
import type { DriveClient } from '../../../api/drive';
import type { CommentReply, DriveComment } from '../../../shared/schemas/drive/comments';
import { appendAll } from '../../../shared/arrays';

/** What comments need from the Drive client: a Pick of it, so tests fake only these calls. */
export type CommentsApi = Pick<DriveClient, 'listComments' | 'getComment' | 'insertComment' | 'patchComment' | 'deleteComment' | 'insertReply' | 'patchReply' | 'deleteReply'>;

/** A loaded list is reused this long by tree expansions; opening a document always reloads. */
export const COMMENTS_TTL_MS = 30_000;
/** Drive's page maximum for comments.list. */
const PAGE_SIZE = 100;
/** A safety stop for a file with a runaway discussion. */
const MAX_COMMENTS = 5000;

interface Entry {
  comments: DriveComment[];
  at: number;
}

export class CommentStore {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<readonly DriveComment[]>>();
  private readonly listeners = new Set<(fileId: string) => void>();
  private readonly loadListeners = new Set<(fileId: string) => void>();
  /** Bumped by reset(), so a load that started before it does not fill the cache afterwards. */
  private generation = 0;
  /** Changes Desk made per file: a list asked for before one of them may not hold it yet. */
  private readonly localChanges = new Map<string, number>();

  constructor(private readonly api: () => CommentsApi, private readonly now: () => number = Date.now) {}

  /** Calls `listener` with the file id whenever that file's comments change here. */
  onDidChange(listener: (fileId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Calls `listener` with the file id after each list Drive answered (changed or not): counts may now be known. */
  onDidLoad(listener: (fileId: string) => void): { dispose(): void } {
    this.loadListeners.add(listener);
    return { dispose: () => void this.loadListeners.delete(listener) };
  }

  cached(fileId: string): readonly DriveComment[] | undefined {
    return this.entries.get(fileId)?.comments;
  }

  /** The file's comments (not deleted), from the cache when younger than `maxAgeMs`; concurrent loads share one request. */
  async load(fileId: string, maxAgeMs = COMMENTS_TTL_MS): Promise<readonly DriveComment[]> {
    const entry = this.entries.get(fileId);
    if (entry && this.now() - entry.at < maxAgeMs) return entry.comments;
    let loading = this.pending.get(fileId);
    if (!loading) {
      const generation = this.generation;
      const changesBefore = this.localChanges.get(fileId) ?? 0;
      let outdated = false;
      loading = this.fetchAll(fileId).then((comments) => {
        if (generation !== this.generation) return comments;
        // Desk changed a comment while this list was on its way (a reopen during a reload the change feed asked
        // for): the list may predate that change and would undo it on screen. Drive is asked again instead.
        outdated = (this.localChanges.get(fileId) ?? 0) !== changesBefore;
        if (outdated) return this.entries.get(fileId)?.comments ?? comments;
        // Whoever asked renders the answer; others hear of it only when it differs from what they showed.
        const before = this.entries.get(fileId)?.comments;
        this.set(fileId, comments, before !== undefined && JSON.stringify(before) !== JSON.stringify(comments));
        for (const listener of [...this.loadListeners]) listener(fileId);
        return comments;
      }).finally(() => {
        this.pending.delete(fileId);
        if (outdated) void this.load(fileId, 0).catch(() => undefined);
      });
      this.pending.set(fileId, loading);
    }
    return loading;
  }

  /** Replaces one comment (or adds it) after Desk changed it. */
  upsert(fileId: string, comment: DriveComment): void {
    this.noteLocalChange(fileId);
    const list = [...(this.entries.get(fileId)?.comments ?? [])];
    const index = list.findIndex((existing) => existing.commentId === comment.commentId);
    if (comment.deleted) {
      if (index >= 0) list.splice(index, 1);
    } else if (index >= 0) {
      list[index] = comment;
    } else {
      list.push(comment);
    }
    this.set(fileId, list);
  }

  /** A reply Desk posted: appended to its comment, whose status follows a resolve / reopen verb. */
  addReply(fileId: string, commentId: string, reply: CommentReply): void {
    const comment = this.find(fileId, commentId);
    if (!comment) return;
    const status = reply.verb === 'resolve' ? 'resolved' : reply.verb === 'reopen' ? 'open' : comment.status;
    this.upsert(fileId, { ...comment, ...(status !== undefined ? { status } : {}), replies: [...(comment.replies ?? []), reply] });
  }

  /** A reply Desk edited or deleted (`undefined`). */
  replaceReply(fileId: string, commentId: string, replyId: string, reply: CommentReply | undefined): void {
    const comment = this.find(fileId, commentId);
    if (!comment) return;
    const replies = (comment.replies ?? []).flatMap((existing) => (existing.replyId !== replyId ? [existing] : reply && !reply.deleted ? [reply] : []));
    this.upsert(fileId, { ...comment, replies });
  }

  remove(fileId: string, commentId: string): void {
    this.noteLocalChange(fileId);
    const entry = this.entries.get(fileId);
    if (!entry) return;
    this.set(fileId, entry.comments.filter((comment) => comment.commentId !== commentId));
  }

  find(fileId: string, commentId: string): DriveComment | undefined {
    return this.entries.get(fileId)?.comments.find((comment) => comment.commentId === commentId);
  }

  /** Marks a file's list stale (its next load asks Drive). */
  invalidate(fileId: string): void {
    const entry = this.entries.get(fileId);
    if (entry) entry.at = Number.NEGATIVE_INFINITY;
  }

  /** Forgets everything (sign-out, another account or backend). */
  reset(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  private noteLocalChange(fileId: string): void {
    this.localChanges.set(fileId, (this.localChanges.get(fileId) ?? 0) + 1);
  }

  private set(fileId: string, comments: DriveComment[], notify = true): void {
    this.entries.set(fileId, { comments, at: this.now() });
    if (notify) for (const listener of [...this.listeners]) listener(fileId);
  }

  private async fetchAll(fileId: string): Promise<DriveComment[]> {
    const comments: DriveComment[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.api().listComments(fileId, { maxResults: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) });
      appendAll(comments, page.items.filter((comment) => !comment.deleted));
      pageToken = page.nextPageToken || undefined;
    } while (pageToken && comments.length < MAX_COMMENTS);
    return comments;
  }
}
