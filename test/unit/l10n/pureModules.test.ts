// The pure modules word what users see through the translator they are handed (vscode.l10n.t in the extension):
// a marking translator shows that no English is left behind in API errors, comment rows, version details, the
// free/busy page and .ics imports, while the errors keep English messages for the logs.
import * as assert from 'node:assert/strict';
import { z } from 'zod/mini';
import { errorMessage, GoogleApiError, NetworkError, ResponseValidationError } from '../../../src/api/errors';
import { parseJson } from '../../../src/api/upload';
import { authorName, commentLabel, commentsNode } from '../../../src/features/drive/comments/nodes';
import { revisionDetail, revisionViews } from '../../../src/features/drive/revisions/history';
import type { FileNode } from '../../../src/features/drive/tree/model';
import { freeBusyHtml } from '../../../src/features/calendar/freeBusy/html';
import { readIcs } from '../../../src/features/calendar/ics';
import { english, type Translate } from '../../../src/shared/l10n';

/** Every message it words comes out in «…», placeholders filled as vscode.l10n.t fills them. */
const marked: Translate = (message, ...args) => `«${english(message, ...args)}»`;

describe('pure modules through the translator', () => {
  it('words the API layer\'s own error messages through t, and keeps English messages for logs', () => {
    const proxy = GoogleApiError.fromResponse(502, '<html>Bad gateway</html>');
    assert.equal(proxy.message, 'Unexpected answer (<html>Bad gateway</html>)');
    assert.equal(errorMessage(proxy, marked), '««Service error»: «Unexpected answer (<html>Bad gateway</html>)»»');
    assert.equal(errorMessage(GoogleApiError.fromResponse(500, ''), marked), '««Service error»: «Unexpected answer (no details)»»');

    // Google's own message is the service's text: only the status is Desk's.
    const google = GoogleApiError.fromResponse(404, JSON.stringify({ error: { code: 404, message: 'File not found: x', errors: [{ reason: 'notFound', message: 'File not found: x', domain: 'global' }] } }));
    assert.equal(errorMessage(google, marked), '««Not found»: File not found: x»');
    assert.equal(google.userMessage, 'Not found: File not found: x');
    // Google's message that is only the status ("Not Found") is said once, not "Not found: Not Found".
    const bare = GoogleApiError.fromResponse(404, JSON.stringify({ error: { code: 404, message: 'Not Found', errors: [{ reason: 'notFound', message: 'Not Found', domain: 'global' }] } }));
    assert.equal(errorMessage(bare, marked), '«Not found»');
    assert.equal(bare.userMessage, 'Not found');

    const network = new NetworkError('drive.files.list', new Error('ECONNREFUSED'));
    assert.equal(network.message, 'Could not reach the service for drive.files.list: ECONNREFUSED');
    assert.equal(errorMessage(network, marked), '«Could not reach the service for drive.files.list: connection refused»', 'no raw network code for the user');

    const notJson = new ResponseValidationError('tasks.tasks.get', (t) => t('the body is not JSON'));
    assert.equal(notJson.issues, 'the body is not JSON');
    assert.equal(errorMessage(notJson, marked), '«The service sent an answer Desk does not understand for tasks.tasks.get: «the body is not JSON»»');

    assert.throws(() => parseJson(z.object({ id: z.string() }), 'not json', 'drive.files.insert'), (error: unknown) => {
      assert.equal(errorMessage(error, marked), '«The service sent a non-JSON answer for drive.files.insert»', 'no HTTP status: the answer itself was unreadable');
      return true;
    });
  });

  it('words comment rows, unknown authors included', () => {
    const file = { kind: 'file', id: 'root/f1', parent: undefined, item: { id: 'f1', title: 'notes.txt' } } as unknown as FileNode;
    assert.equal(commentsNode(file, 3, marked).label, '«Comments (3)»');
    assert.equal(authorName({}, marked), '«Unknown user»');
    assert.equal(authorName({ author: { displayName: 'Ada' } }, marked), 'Ada');
    assert.equal(commentLabel({ commentId: 'c1', content: 'Looks good' }, marked), '««Unknown user»: Looks good»');
  });

  it('words file sizes in version details', () => {
    const [head] = revisionViews([{ id: '1', mimeType: 'text/plain', fileSize: '2048' }]);
    const words = { current: 'now', pinned: 'kept', published: 'out', publishedAuto: 'out, auto' };
    assert.equal(revisionDetail(head, words, marked), 'now · «2.0 KB»');
  });

  it('words the free/busy page and declares its language', () => {
    const day = { key: '2026-11-24', label: 'Tue 24 Nov', start: Date.parse('2026-11-23T23:00:00Z'), end: Date.parse('2026-11-24T23:00:00Z') };
    const html = freeBusyHtml({
      title: 'T',
      timeZone: 'Europe/Berlin',
      days: [day],
      lanes: [
        { id: 'a', label: 'Alice', busy: [{ start: Date.parse('2026-11-24T09:00:00Z'), end: Date.parse('2026-11-24T12:00:00Z') }, { start: day.start, end: day.end }] },
        { id: 'b', label: 'Bob', busy: [] },
      ],
    }, { nonce: 'n', cspSource: 's', t: marked, lang: 'qps-ploc' });
    assert.match(html, /<html lang="qps-ploc">/);
    assert.match(html, /aria-label="«Alice: busy 10:00–13:00, Tue 24 Nov»"/);
    assert.match(html, /title="«Alice: busy «all day»»"/);
    assert.match(html, /<span class="free">«free»<\/span>/);
    assert.match(html, /«Times in Europe\/Berlin\. Tab to a busy block; the arrow keys move between blocks\.»/);
    assert.doesNotMatch(html, />free<|"[^"«]*: busy /, 'no English word outside the translator');
  });

  it('words why an .ics event was left out', () => {
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'DTSTART:20261124T090000Z', 'END:VEVENT', 'BEGIN:VEVENT', 'UID:x@y', 'SUMMARY:Standup', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');
    assert.deepEqual(readIcs(ics, 'UTC', marked).skipped, ['««(untitled)»: no UID»', '«Standup: no start»']);
    assert.deepEqual(readIcs(ics, 'UTC').skipped, ['(untitled): no UID', 'Standup: no start']);
  });
});
