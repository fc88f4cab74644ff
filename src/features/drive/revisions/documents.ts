/**
 * Old versions of Drive files as read-only documents (`desk-drive-revision:`): a text document content provider, so
 * VS Code never offers to save them. A version's content never changes, so each is fetched once (a few are kept).
 */
import type * as vscode from 'vscode';
import type { Readable } from 'node:stream';
import { errorMessage } from '../../../api/errors';
import { parseRevisionUri, RevisionDocumentRef, revisionUriParts, REVISION_SCHEME, textOf } from './history';
import type { RevisionsApi } from './port';

const KEPT = 16;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export class RevisionDocuments implements vscode.TextDocumentContentProvider {
  private readonly cache = new Map<string, string>();

  constructor(private readonly vs: typeof vscode, private readonly api: () => RevisionsApi) {}

  uriFor(account: string, ref: RevisionDocumentRef, tabTitle: string): vscode.Uri {
    return this.vs.Uri.from({ scheme: REVISION_SCHEME, authority: account, ...revisionUriParts(ref, tabTitle) });
  }

  /** Forget cached content (another account or backend). */
  reset(): void {
    this.cache.clear();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const t = this.vs.l10n.t;
    const ref = parseRevisionUri(uri.path, uri.query);
    if (!ref) return t('This is not a Drive version address.');
    const key = `${ref.fileId}/${ref.revisionId}/${ref.exportType ?? ''}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let text: string;
    try {
      const bytes = ref.exportType
        ? await this.api().exportRevision(ref.fileId, ref.revisionId, ref.exportType)
        : await readAll((await this.api().downloadRevision(ref.fileId, ref.revisionId)).stream);
      text = textOf(bytes) ?? t('This version is not text ({0} bytes). Restore it, or download the file, to see it.', bytes.length);
    } catch (error) {
      // Not cached: the next open tries again.
      return t('Could not read this version: {0}', errorMessage(error, t));
    }
    this.cache.set(key, text);
    if (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value as string);
    return text;
  }
}
