/** The test helper that holds the emulator's answers to Google's discovery schemas: it must catch what it claims to. */
import * as assert from 'node:assert/strict';
import { answerProblems, documentedExtensions } from '../../../support/discoverySchemas';

describe('discovery schema check (test helper)', () => {
  const none = new Set<string>();

  it('accepts an answer that follows the schema, and names every property, type, enum and format that does not', () => {
    const volume = { kind: 'books#volume', id: 'v1', volumeInfo: { title: 'T', pageCount: 12, publishedDate: '2020' } };
    assert.deepEqual(answerProblems('books.volumes.get', volume, none), []);
    const wrong = answerProblems('books.volumes.get', { ...volume, invented: true, volumeInfo: { pageCount: '12' } }, none);
    assert.deepEqual(wrong.sort(), ["Volume.invented: not in Google's Volume (nor a documented extension)", 'Volume.volumeInfo.pageCount: "12" is not an integer']);
    assert.deepEqual(answerProblems('calendar.events.get', { kind: 'calendar#event', sequence: 1, created: 'yesterday', status: 'maybe', attendees: [{ email: 'a@b', responseStatus: 'accepted' }] }, none).sort(), [
      'Event.created: "yesterday" is not an RFC 3339 date-time',
    ].sort());
    assert.deepEqual(answerProblems('drive.files.get', { kind: 'drive#file', fileSize: 12, version: '3' }, none), ['File.fileSize: 12 is not a string (int64)']);
    assert.deepEqual(answerProblems('drive.files.get', { kind: 'drive#file', labels: null }, none), ['File.labels: null (Google leaves a property out instead)']);
  });

  it('lets a property through when the README lists it as a deliberate extension', () => {
    assert.deepEqual(answerProblems('books.volumes.get', { kind: 'books#volume', invented: true }, new Set(['Volume.invented'])), []);
    assert.deepEqual(answerProblems('books.volumes.get', { kind: 'books#volume', invented: true }, new Set(['books:Volume.invented'])), []);
    const readme = "# Desk\n\n### Deliberate extensions to Google's schemas\n\n- `Volume.invented` — why\n- `drive:File.other` — why\n\n## Next\n- `Not.this`\n";
    assert.deepEqual([...documentedExtensions(readme)], ['Volume.invented', 'drive:File.other']);
  });
});
