// What the Command Palette offers first for what a user types, read from the manifest as VS Code 1.100 reads it:
// labels "Category: Title", kept when the typed text matches by prefix, by words or as a substring (its
// matchesPrefix / matchesWords / matchesContiguousSubString, ported below), then, for commands never run before,
// sorted by label.localeCompare (commandsQuickAccess.ts). And the titles say what they do, without Drive's jargon.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string; title: string; category?: string }> } };
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const words = (value: string): string => (value.startsWith('%') ? nls[value.slice(1, -1)] ?? value : value);
const labels = manifest.contributes.commands.map((entry) => ({
  id: entry.command,
  label: entry.category ? `${words(entry.category)}: ${words(entry.title)}` : words(entry.title),
}));

const SEPARATORS = new Set(Array.from('()[]{}<>`\'"-/;:,.?!_ @#$%^&*|\\=+~'));
const isSeparator = (char: string | undefined): boolean => char !== undefined && SEPARATORS.has(char);
const charactersMatch = (a: string | undefined, b: string | undefined): boolean => a === b || (isSeparator(a) && isSeparator(b));
function nextWord(target: string, start: number): number {
  for (let index = start; index < target.length; index++) {
    if (isSeparator(target[index]) || (index > 0 && isSeparator(target[index - 1]))) return index;
  }
  return target.length;
}
function matchesFrom(word: string, target: string, wordIndex: number, targetIndex: number): boolean {
  if (wordIndex === word.length) return true;
  if (targetIndex === target.length || !charactersMatch(word[wordIndex], target[targetIndex])) return false;
  let next = targetIndex + 1;
  if (matchesFrom(word, target, wordIndex + 1, next)) return true;
  while ((next = nextWord(target, next)) < target.length) {
    if (matchesFrom(word, target, wordIndex + 1, next)) return true;
    next++;
  }
  return false;
}
function matchesWords(word: string, target: string): boolean {
  const query = word.toLowerCase();
  const text = target.toLowerCase();
  for (let index = 0; index < text.length; index = nextWord(text, index + 1)) if (matchesFrom(query, text, 0, index)) return true;
  return false;
}
const matches = (typed: string, label: string): boolean =>
  label.toLowerCase().startsWith(typed.toLowerCase()) || matchesWords(typed, label) || label.toLowerCase().includes(typed.toLowerCase());

function palette(typed: string): string[] {
  return labels.filter((entry) => matches(typed, entry.label)).sort((a, b) => a.label.localeCompare(b.label)).map((entry) => entry.id);
}

describe('The Command Palette', () => {
  it('offers the search across services first for "Desk: Search", before any one service\'s search', () => {
    assert.equal(palette('Desk: Search')[0], 'desk.search.everything', palette('Desk: Search').join(', '));
    assert.equal(palette('Desk: Search…')[0], 'desk.search.everything');
    assert.ok(palette('Books').includes('desk.books.search'), 'the Books search is still found by its service');
  });

  it('names commands by what they do, not by Drive\'s API words', () => {
    const jargon = /Mark as Modified Now|Keep Forever|^Desk Drive: Publish a Version…$|Show Installed Apps/;
    assert.deepEqual(labels.filter((entry) => jargon.test(entry.label)).map((entry) => entry.label), []);
  });
});
