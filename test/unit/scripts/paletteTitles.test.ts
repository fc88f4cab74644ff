// The Command Palette as a user reads it: each of Desk's commands shows as "<category>: <title>", one category per
// service ("Desk Drive: Star"), so every title names its service once, and no two commands read the same.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Command {
  command: string;
  title: string;
  category?: string;
}
interface PaletteEntry {
  command: string;
  when?: string;
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: Command[]; menus: { commandPalette?: PaletteEntry[] } } };
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Partial<Record<string, string | { message: string }>>;

/** A `%key%` reference resolved through package.nls.json, as VS Code shows it in English. */
function resolve(value: string | undefined): string | undefined {
  const key = /^%([^%]+)%$/.exec(value ?? '')?.[1];
  if (!key) return value;
  const entry = nls[key];
  return typeof entry === 'string' ? entry : entry?.message;
}

/** One category per service; the account and backend commands are Desk's own. */
const SERVICES = ['Desk', 'Desk Tasks', 'Desk TODOs', 'Desk Drive', 'Desk Books', 'Desk Calendar', 'Desk Channels'];
const hidden = new Set((pkg.contributes.menus.commandPalette ?? []).filter((entry) => entry.when === 'false').map((entry) => entry.command));
const commands = pkg.contributes.commands.map((command) => ({ id: command.command, title: resolve(command.title) ?? '', category: resolve(command.category) }));

describe('Command Palette titles', () => {
  it('every Desk command has its service as category', () => {
    const wrong = commands.filter((command) => !command.category || !SERVICES.includes(command.category)).map((command) => `${command.id}: ${command.category ?? 'no category'}`);
    assert.deepEqual(wrong, []);
  });

  it('each service category is used by its own commands (desk.drive.* under Desk Drive, and so on)', () => {
    const expected: Array<[RegExp, string]> = [[/^desk\.todo\.|Todo/, 'Desk TODOs'], [/^desk\.tasks\./, 'Desk Tasks'], [/^desk\.drive\./, 'Desk Drive'], [/^desk\.books\./, 'Desk Books'], [/^desk\.calendar\./, 'Desk Calendar'], [/^desk\.channels\./, 'Desk Channels']];
    const wrong = commands.filter((command) => {
      const service = expected.find(([pattern]) => pattern.test(command.id))?.[1] ?? 'Desk';
      return command.category !== service;
    });
    assert.deepEqual(wrong.map((command) => `${command.id}: ${command.category ?? ''}`), []);
  });

  it('no two palette entries read the same (category and title)', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const command of commands.filter((candidate) => !hidden.has(candidate.id))) {
      const shown = `${String(command.category)}: ${command.title}`.toLowerCase();
      const other = seen.get(shown);
      if (other) clashes.push(`${other} and ${command.id} both read "${String(command.category)}: ${command.title}"`);
      seen.set(shown, command.id);
    }
    assert.deepEqual(clashes, []);
  });

  it('a title does not repeat the service or Desk ("Desk Drive: Drive: …"), nor say one thing and its opposite', () => {
    const wrong = commands.filter((command) => /^(Desk|Drive|Tasks|Books|Calendar|Channels|TODOs?)\b\s*:/i.test(command.title) || /\bDesk\b/.test(command.title) || /\bHide Hidden\b|\bShow Shown\b/i.test(command.title));
    assert.deepEqual(wrong.map((command) => `${command.id}: ${command.title}`), []);
  });

  it('no title is the API\'s word for a user\'s action ("Update Modified Time", "Drive Apps")', () => {
    const jargon = /\bModified Time\b|\bDrive Apps\b|\bRevision\b|\bVolume\b/;
    assert.deepEqual(commands.filter((command) => jargon.test(command.title)).map((command) => `${command.id}: ${command.title}`), []);
  });
});
