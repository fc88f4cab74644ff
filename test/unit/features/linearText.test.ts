/**
 * Text Desk does not control (task notes, comment quotes, workspace files, typed label values) is read in linear
 * time: each rewritten regular expression gives what its one-regex form gave on random small inputs, and takes a
 * hostile input of about a million characters that held the extension host for minutes or hours before.
 */
import * as assert from 'node:assert/strict';
import { findTodos, parseTodo, patternsFor, relocateTodo, sourceOf, todoLocator } from '../../../src/features/tasks/todo/todoParser';
import { notesMarkdown } from '../../../src/features/tasks/tree/presentation';
import { commentPlacer, lineAnchor, placeComment, quoteOf } from '../../../src/features/drive/comments/anchors';
import { fieldValueProblem, LabelDefinitionField, looksLikeEmail } from '../../../src/shared/schemas/drive/labels';
import { parseEmails } from '../../../src/features/drive/sharing/emails';

/** `count` random texts of up to `maxPieces` pieces, the same every run. */
function randomTexts(pieces: readonly string[], count: number, maxPieces = 12): string[] {
  let seed = 11;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  return Array.from({ length: count }, () => Array.from({ length: next() % (maxPieces + 1) }, () => pieces[next() % pieces.length]).join(''));
}

const MILLION = 1_000_000;

describe('linear reading of text from services, files and the user', () => {
  it('TODO comments: the same match as before on any line, and a line of a million "#", "-", ";" or "%" in one pass', () => {
    const before = new RegExp(String.raw`(?<pre>^|[^:\w/])(?<opener>\/\/+!?|#+|--+|\/\*+|<!--|;+|%+|\(\*+|\{-|^\s*\*+)(?<gap>[ \t]*)(?<keyword>TODO|FIXME)\b(?:\((?<tags>[^()]*)\))?(?::|[ \t]|$)`);
    const pieces = ['#', '##', '-', '--', ';', '%', '/', '//', '*', '/*', '(*', '{-', '<!--', ' ', '\t', 'TODO', 'FIXME', 'x', ':', '(', ')', 'task:a1'];
    for (const line of randomTexts(pieces, 20000)) {
      const [was, is] = [before.exec(line), patternsFor().todo.exec(line)];
      assert.deepEqual(is && { index: is.index, groups: { ...is.groups } }, was && { index: was.index, groups: { ...was.groups } }, JSON.stringify(line));
    }
    for (const run of ['#', '-', ';', '%']) {
      assert.equal(parseTodo(`${run.repeat(MILLION)} TODO: tidy`)?.text, 'tidy');
      assert.deepEqual(findTodos(`a\n${run.repeat(MILLION)}x TODO\nb`), []);
    }
  });

  it("a task's Source line: the same path and line as before, and a million trailing spaces in one pass", () => {
    const before = (notes: string): { path: string; line: number | undefined } | undefined => {
      const found = /^Source: (.+?)(?::(\d+))?\s*$/m.exec(notes);
      return found?.[1] ? { path: found[1], line: found[2] ? Number(found[2]) : undefined } : undefined;
    };
    const pieces = ['Source: ', 'src/a.ts', ':', '12', '7', ' ', '\t', '\u00a0', '\n', '\r', '\u2028', 'x', 'Source:'];
    for (const notes of randomTexts(pieces, 20000)) assert.deepEqual(sourceOf(notes), before(notes), JSON.stringify(notes));
    assert.deepEqual(sourceOf(`Source: a${' '.repeat(MILLION)}x`), { path: `a${' '.repeat(MILLION)}x`, line: undefined });
  });

  it('task notes keep a [label]: command: definition from acting, as before, and a million spaces, line breaks or "[\\r" in one pass', () => {
    const before = (notes: string): string => notes
      .replace(/\]\(\s*(?:<\s*)?command:/gi, '\\]\\(command:')
      .replace(/^(\s*)\[([^\]\n]*)\]:(\s*<?\s*command:)/gim, '$1\\[$2\\]:$3')
      .replace(/</g, '\\<')
      .split('\n')
      .map((line) => `${line}  `)
      .join('\n');
    const pieces = ['[', ']', ']:', '[a]:', ' ', '\t', '\n', '\r', '\u2028', '<', 'command:', 'COMMAND:', 'a', '](', '\n['];
    for (const notes of randomTexts(pieces, 20000)) assert.equal(notesMarkdown(notes), before(notes), JSON.stringify(notes));
    assert.ok(notesMarkdown(`[a]:${' '.repeat(MILLION)}`).startsWith('[a]:'));
    assert.equal(notesMarkdown('\n'.repeat(MILLION)).length, 3 * MILLION + 2);
    assert.ok(notesMarkdown(`${'[\r'.repeat(MILLION / 2)}]: command:x`).startsWith('\\[\r['));
  });

  it("a comment's quote loses its outer line breaks as before, and a million inner ones in one pass", () => {
    for (const value of randomTexts(['\n', '\r', 'a', ' ', '\r\n'], 5000)) {
      const was = value.replace(/\r\n?/g, '\n').replace(/^\n+|\n+$/g, '');
      assert.equal(quoteOf({ type: 'text/plain', value }), was.trim() === '' ? undefined : was, JSON.stringify(value));
    }
    assert.equal(quoteOf({ type: 'text/plain', value: `a${'\n'.repeat(MILLION)}b` })?.length, MILLION + 2);
  });

  it('a typed user value reads as an address exactly as before, and a million dots in one pass', () => {
    for (const text of randomTexts(['a', '@', '.', ' ', '..', 'b.c'], 20000, 8)) {
      assert.equal(looksLikeEmail(text), /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text), JSON.stringify(text));
    }
    assert.equal(looksLikeEmail(`a@${'.'.repeat(MILLION)}@`), false);
    assert.equal(looksLikeEmail(`a@b${'.'.repeat(MILLION)}c`), true);
  });

  it('a pasted list of 92,000 addresses (1.7 MB) is checked and de-duplicated in one pass, first spelling first', () => {
    const addresses = Array.from({ length: 46_000 }, (_, index) => `user${index}@example.com`);
    const pasted = [...addresses, ...addresses.map((address) => address.toUpperCase())].join(', ');
    assert.deepEqual(parseEmails(pasted), { emails: addresses, invalid: [] });
  });

  it('moved TODOs are found where relocateTodo finds them, and a thousand gone from 100,000 lines with one parse of each line', () => {
    const kinds = ['x = 1;', '// TODO: a', '// TODO: b', '# FIXME: a', '// TODO(task:t1): a', '// TODO(task:t2): b', '// TODO(alice, task:t1): c', ''];
    let seed = 5;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let sample = 0; sample < 3000; sample++) {
      const lines = Array.from({ length: next() % 12 }, () => kinds[next() % kinds.length]);
      const lineAt = (line: number): string => lines[line];
      const locator = todoLocator(lineAt, lines.length);
      const line = (next() % 16) - 2;
      const [keyword, text] = [['TODO', 'FIXME'][next() % 2], ['a', 'b', 'c'][next() % 3]];
      const taskId = ['t1', 't2', 't3'][next() % 3];
      const context = JSON.stringify({ lines, line, keyword, text, taskId });
      assert.equal(locator.unlinked(line, { keyword, text }), relocateTodo(lineAt, lines.length, line, (todo) => !todo.taskId && todo.text === text && todo.keyword === keyword), context);
      assert.equal(locator.linked(line, taskId), relocateTodo(lineAt, lines.length, line, (todo) => todo.taskId === taskId), context);
    }
    const document = Array.from({ length: 100_000 }, (_, line) => (line % 10 === 0 ? `  // TODO: item ${line}` : `  const x${line} = ${line};`));
    let parsed = 0;
    const locator = todoLocator((line) => {
      parsed++;
      return document[line];
    }, document.length);
    for (let gone = 0; gone < 1000; gone++) assert.equal(locator.unlinked(gone * 100 + 5, { keyword: 'TODO', text: `gone ${gone}` }), undefined);
    assert.equal(locator.unlinked(99_999, { keyword: 'TODO', text: 'item 50000' }), 50_000);
    assert.ok(parsed <= document.length + 1001, `${parsed} line parses`);
  });

  it("the 5,000 comments of a 1 MB CRLF document are placed as one by one, with the document's lines found once", () => {
    const text = Array.from({ length: 20_000 }, (_, line) => `line ${line} of the document, with some words in it`).join('\r\n');
    const comments = Array.from({ length: 5000 }, (_, index) => ({
      anchor: lineAnchor({ start: index % 50, end: index % 50 }, 1),
      context: { type: 'text/plain', value: index % 2 === 0 ? `line ${index * 4 + 1} of` : `gone ${index}` },
    }));
    const placeOf = commentPlacer(text);
    const places = comments.map((comment) => placeOf(comment));
    assert.deepEqual(places[10], { start: 41, end: 41, via: 'quote' });
    assert.deepEqual(places[11], { start: 11, end: 11, via: 'anchor' });
    for (const index of [0, 1, 2499, 4998, 4999]) assert.deepEqual(places[index], placeComment(comments[index], text));
  });

  it('a typed whole number is checked against the bounds as BigInt checks it, and a million digits in one pass', () => {
    const withBigInt = (value: string, min: string, max: string): string | undefined => {
      if (!/^-?\d+$/.test(value.trim())) return 'notInteger';
      if (BigInt(value.trim()) < BigInt(min)) return 'tooSmall';
      return BigInt(value.trim()) > BigInt(max) ? 'tooLarge' : undefined;
    };
    const numbers = randomTexts(['-', '0', '00', '1', '9', '12', ' ', 'x'], 3000, 5);
    const bounds = ['-0', '0', '00', '-9', '10', '-10', '9223372036854775807', '-9223372036854775808', '0x10', '007'];
    for (const value of numbers) {
      for (const [min, max] of [[bounds[value.length % 10], bounds[(value.length * 7 + 3) % 10]], ['-10', '10'], ['0x10', '-9']] as Array<[string, string]>) {
        const field = { integerOptions: { minValue: min, maxValue: max } } as LabelDefinitionField;
        let was: string | undefined;
        try {
          was = withBigInt(value, min, max);
        } catch {
          was = 'throws';
        }
        let is: string | undefined;
        try {
          is = fieldValueProblem(field, value)?.code;
        } catch {
          is = 'throws';
        }
        assert.equal(is, was, JSON.stringify({ value, min, max }));
      }
    }
    const field = { integerOptions: {} } as LabelDefinitionField;
    assert.equal(fieldValueProblem(field, `${'0'.repeat(MILLION)}42`), undefined);
    assert.equal(fieldValueProblem(field, '9'.repeat(MILLION))?.code, 'tooLarge');
    assert.equal(fieldValueProblem(field, `-${'9'.repeat(MILLION)}`)?.code, 'tooSmall');
  });
});
