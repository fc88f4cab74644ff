import { Readable } from 'node:stream';
import type { BatchResult } from '../../../src/api/batch';
import type { DriveApi, DriveItem, DriveMetadataPatch, DriveMove } from '../../../src/features/drive/port';
import { FOLDER_MIME_TYPE as FOLDER_MIME } from '../../../src/shared/schemas/drive';

type MutableItem = { -readonly [K in keyof DriveItem]: DriveItem[K] } & { content?: Buffer; sharedWithMe?: boolean };

/** An in-memory Drive answering the few query shapes the tree sends, with numeric page tokens. */
export class FakeDrive implements DriveApi {
  readonly files = new Map<string, MutableItem>();
  readonly listRequests: { q: string; pageToken?: string | undefined; maxResults?: number | undefined; driveId?: string }[] = [];
  readonly patches: { fileId: string; metadata: DriveMetadataPatch; options: unknown }[] = [];
  rootId = 'root-id';
  private nextId = 1;
  private version = 1;

  folder(title: string, parent = this.rootId, extra: Partial<MutableItem> = {}): string {
    return this.add({ title, mimeType: FOLDER_MIME, parents: [{ id: parent, isRoot: parent === this.rootId }], ...extra });
  }

  file(title: string, parent = this.rootId, extra: Partial<MutableItem> = {}): string {
    return this.add({ title, mimeType: 'text/plain', fileSize: '10', parents: [{ id: parent, isRoot: parent === this.rootId }], ...extra });
  }

  add(item: Partial<MutableItem>): string {
    const id = item.id ?? `f${this.nextId++}`;
    this.files.set(id, { ...item, id, etag: `"v${this.version++}"`, labels: { trashed: false, starred: false, ...item.labels } });
    return id;
  }

  async about() {
    return { rootFolderId: this.rootId, exportFormats: [] };
  }

  async getFile(fileId: string): Promise<DriveItem> {
    const file = this.files.get(fileId);
    if (!file) throw Object.assign(new Error('not found'), { status: 404 });
    return { ...file };
  }

  async listFiles(request: { q: string; orderBy?: string; maxResults?: number; pageToken?: string | undefined; corpora?: 'drive'; driveId?: string }) {
    this.listRequests.push({ q: request.q, pageToken: request.pageToken, maxResults: request.maxResults, ...(request.driveId !== undefined ? { driveId: request.driveId } : {}) });
    const inParents = /^'([^']+)' in parents and trashed = false$/.exec(request.q);
    let matches: MutableItem[];
    // `root` is Drive's alias of the user's My Drive folder.
    const parentId = inParents?.[1] === 'root' ? this.rootId : inParents?.[1];
    if (inParents) matches = [...this.files.values()].filter((file) => !file.labels?.trashed && file.parents?.some((parent) => parent.id === parentId));
    // As Drive: the user's trash leaves shared drives out; a drive's corpus is that drive's items only.
    else if (request.q === 'trashed = true') matches = [...this.files.values()].filter((file) => file.labels?.trashed && file.driveId === (request.corpora === 'drive' ? request.driveId : undefined));
    else if (request.q === 'sharedWithMe and trashed = false') matches = [...this.files.values()].filter((file) => file.sharedWithMe && !file.labels?.trashed);
    else throw new Error(`unexpected q ${request.q}`);
    // Server order deliberately not folders-first: the tree must not depend on it.
    matches.sort((a, b) => (a.id < b.id ? -1 : 1));
    const start = Number(request.pageToken ?? 0);
    const size = request.maxResults ?? 100;
    const items = matches.slice(start, start + size).map((file) => ({ ...file }));
    return { items, nextPageToken: start + size < matches.length ? String(start + size) : undefined };
  }

  async patchFile(fileId: string, metadata: DriveMetadataPatch, options?: { addParents?: string[]; removeParents?: string[]; ifMatch?: string }): Promise<DriveItem> {
    this.patches.push({ fileId, metadata, options });
    const file = this.files.get(fileId);
    if (!file) throw new Error('not found');
    if (metadata.title !== undefined) file.title = metadata.title;
    const parents = (file.parents ?? []).filter((parent) => !options?.removeParents?.includes(parent.id));
    for (const id of options?.addParents ?? []) parents.push({ id, isRoot: id === this.rootId });
    file.parents = parents;
    if (metadata.labels) file.labels = { ...file.labels, ...metadata.labels };
    file.etag = `"v${this.version++}"`;
    return { ...file };
  }

  async trashFile(fileId: string): Promise<DriveItem> {
    return this.patchFile(fileId, { labels: { trashed: true } });
  }

  trashFiles(fileIds: readonly string[]): Promise<BatchResult<DriveItem>[]> { return settleEach(fileIds, (id) => this.trashFile(id)); }
  untrashFiles(fileIds: readonly string[]): Promise<BatchResult<DriveItem>[]> { return settleEach(fileIds, (id) => this.untrashFile(id)); }
  deleteFiles(fileIds: readonly string[]): Promise<BatchResult<void>[]> { return settleEach(fileIds, (id) => this.deleteFile(id)); }
  moveFiles(moves: readonly DriveMove[]): Promise<BatchResult<DriveItem>[]> {
    return settleEach(moves, (move) => this.patchFile(move.fileId, {}, { addParents: [...move.addParents], removeParents: [...move.removeParents] }));
  }

  async untrashFile(fileId: string): Promise<DriveItem> {
    return this.patchFile(fileId, { labels: { trashed: false } });
  }

  async updateContent(fileId: string, content: Buffer, options: { ifMatch?: string | undefined }): Promise<DriveItem> {
    const file = this.files.get(fileId);
    if (!file) throw new Error('not found');
    if (options.ifMatch && options.ifMatch !== file.etag) throw Object.assign(new Error('conditionNotMet'), { status: 412 });
    file.content = content;
    file.fileSize = String(content.length);
    file.etag = `"v${this.version++}"`;
    return { ...file };
  }

  async download(fileId: string) {
    const file = this.files.get(fileId);
    if (!file) throw new Error('not found');
    return { stream: Readable.from([file.content ?? Buffer.alloc(0)]), etag: file.etag, size: file.content?.length };
  }

  async insertFolder(title: string, parentId: string): Promise<DriveItem> {
    return this.getFile(this.folder(title, parentId));
  }

  async insertEmptyFile(title: string, parentId: string, options: { id?: string; mimeType?: string } = {}): Promise<DriveItem> {
    if (options.id && this.files.has(options.id)) throw Object.assign(new Error('duplicate'), { status: 409 });
    return this.getFile(this.add({ ...(options.id ? { id: options.id } : {}), title, mimeType: options.mimeType ?? 'text/plain', fileSize: '0', parents: [{ id: parentId, isRoot: parentId === this.rootId }] }));
  }

  async generateIds(count: number): Promise<readonly string[]> {
    return Array.from({ length: count }, () => `gen${this.nextId++}`);
  }

  async uploadFile(metadata: { title: string; parents: readonly { id: string }[] }, content: Buffer | Readable): Promise<DriveItem> {
    const id = this.file(metadata.title, metadata.parents[0]?.id);
    const file = this.files.get(id) as MutableItem;
    if (Buffer.isBuffer(content)) file.content = content;
    return { ...file };
  }

  async copyFile(): Promise<DriveItem> { throw new Error('not used'); }
  async deleteFile(fileId: string): Promise<void> { this.files.delete(fileId); }
  readonly emptiedTrashes: (string | undefined)[] = [];
  async emptyTrash(driveId?: string): Promise<void> {
    this.emptiedTrashes.push(driveId);
    for (const [id, file] of this.files) if (file.labels?.trashed && file.driveId === driveId) this.files.delete(id);
  }
  async touchFile(fileId: string): Promise<DriveItem> { return this.getFile(fileId); }
  async exportFile(): Promise<Buffer> { return Buffer.from('exported'); }
  async insertParent(fileId: string, parentId: string): Promise<void> { await this.patchFile(fileId, {}, { addParents: [parentId] }); }
  async deleteParent(fileId: string, parentId: string): Promise<void> { await this.patchFile(fileId, {}, { removeParents: [parentId] }); }
  async hasChild(folderId: string, childId: string): Promise<boolean> { return this.files.get(childId)?.parents?.some((parent) => parent.id === folderId) ?? false; }
  async deleteChild(folderId: string, childId: string): Promise<void> { await this.deleteParent(childId, folderId); }
  async listParents(fileId: string) { return (await this.getFile(fileId)).parents ?? []; }
  async insertChild(folderId: string, childId: string): Promise<void> { await this.insertParent(childId, folderId); }
  async listChildren(folderId: string) {
    return { ids: [...this.files.values()].filter((file) => file.parents?.some((parent) => parent.id === folderId)).map((file) => file.id) };
  }
  async listApps(): Promise<never[]> { return []; }
  async getApp(): Promise<never> { throw new Error('not used'); }
}

/** The batch API's per-item results, from one call per item (the fake has no batch endpoint). */
async function settleEach<I, T>(items: readonly I[], call: (item: I) => Promise<T>): Promise<BatchResult<T>[]> {
  const results: BatchResult<T>[] = [];
  for (const item of items) {
    try {
      results.push({ ok: true, value: await call(item) });
    } catch (error) {
      results.push({ ok: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return results;
}
