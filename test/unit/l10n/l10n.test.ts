// The localization machinery: the manifest's words in package.nls.json, the code's messages in l10n/, and the
// pseudo-localized files (qps-ploc) proving that nothing is left untranslated. Fix a failure with
// `node scripts/l10n/manifest.js` (manifest) and `node scripts/l10n/export.js --pseudo` (bundles).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

type Entry = string | { message: string; comment: string[] };
type Json = Record<string, unknown>;
interface Site {
  holder: Record<string | number, unknown>;
  prop: string | number;
  key: string;
  where: string;
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = require(path.join(root, 'scripts', 'l10n', 'manifest.js')) as {
  sites(pkg: Json): Site[];
  check(pkg: Json, nls: Record<string, Entry>): string[];
  extract(pkg: Json, nls: Record<string, Entry>): { nls: Record<string, Entry>; moved: Array<{ key: string; where: string }>; dropped: string[]; errors: string[] };
};
const exporter = require(path.join(root, 'scripts', 'l10n', 'export.js')) as {
  scan(root?: string): { messages: Map<string, Entry>; sites: Array<{ key: string; where: string }>; problems: string[]; files: number };
  bundle(messages: Map<string, Entry>): Record<string, Entry>;
  pseudo(text: string): string;
  protectedParts(text: string): string[];
  BUNDLE: string;
  PSEUDO_BUNDLE: string;
  PSEUDO_NLS: string;
};

function readJson(file: string): Json {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Json;
}

function text(entry: Entry): string {
  return typeof entry === 'string' ? entry : entry.message;
}

/** The letters a pseudo-localized string shows untranslated: ASCII letters outside its protected parts. */
function untranslated(value: string): string {
  let rest = value;
  for (const part of exporter.protectedParts(value)) rest = rest.replace(part, '');
  return rest.replace(/[^A-Za-z]/g, '');
}

function assertPseudo(original: Record<string, Entry>, pseudo: Record<string, Entry>, file: string): void {
  const missing = Object.keys(original).filter((key) => !(key in pseudo));
  assert.deepEqual(missing, [], `${file} lacks keys: run node scripts/l10n/export.js --pseudo`);
  const extra = Object.keys(pseudo).filter((key) => !(key in original));
  assert.deepEqual(extra, [], `${file} has stale keys: run node scripts/l10n/export.js --pseudo`);
  for (const [key, entry] of Object.entries(original)) {
    const source = text(entry);
    const translated = text(pseudo[key]);
    assert.ok(translated.startsWith('⟦') && translated.endsWith('⟧'), `${file}: ${key} is not pseudo-localized: ${translated}`);
    assert.equal(untranslated(translated), '', `${file}: ${key} keeps untranslated letters: ${translated}`);
    assert.deepEqual(exporter.protectedParts(translated), exporter.protectedParts(source), `${file}: ${key} lost a placeholder, codicon, link target or code span`);
    assert.equal(exporter.pseudo(source), translated, `${file}: ${key} is out of date: run node scripts/l10n/export.js --pseudo`);
  }
}

describe('l10n: the manifest', () => {
  it('holds no user-facing literal, and every %key% is in package.nls.json (node scripts/l10n/manifest.js --check)', () => {
    assert.deepEqual(manifest.check(readJson('package.json'), readJson('package.nls.json') as Record<string, Entry>), []);
  });

  it('declares the l10n folder, and the package ships it and package.nls.json', () => {
    assert.equal(readJson('package.json').l10n, './l10n');
    const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split(/\r?\n/).map((line) => line.trim());
    assert.ok(ignore.includes('!l10n/**'), '.vscodeignore must ship l10n/**');
    assert.ok(ignore.includes('!package.nls.json'), '.vscodeignore must ship package.nls.json');
  });

  it('the check fails on a literal, a missing key and an unused key', () => {
    const pkg = { displayName: 'Desk', description: '%desk.description%', contributes: { commands: [{ command: 'desk.x', title: '%desk.command.x.title%', category: '%desk.category.desk%' }] } };
    const problems = manifest.check(pkg, { 'desk.description': 'D', 'desk.category.desk': 'Desk', 'desk.unused': 'U' });
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems.join('\n'), /displayName is a literal/);
    assert.match(problems.join('\n'), /%desk\.command\.x\.title%, which package\.nls\.json does not define/);
    assert.match(problems.join('\n'), /defines desk\.unused, which package\.json does not use/);
  });

  it('extraction moves the literals under id-based keys, leaves ids and when clauses alone, and is idempotent', () => {
    const pkg = {
      displayName: 'Desk',
      contributes: {
        views: { desk: [{ id: 'desk.tasks', name: 'Tasks', contextualTitle: 'Desk' }] },
        viewsWelcome: [{ view: 'desk.tasks', when: '!desk:signedIn', contents: 'Hello\n[Sign In](command:desk.signIn)' }],
        commands: [{ command: 'desk.tasks.addTask', title: 'New Task…', category: 'Desk', icon: '$(add)' }, { command: 'desk.tasks.refresh', title: 'Refresh', category: 'Desk' }],
        menus: { 'view/title': [{ command: 'desk.tasks.refresh', when: 'view == desk.tasks', group: 'navigation' }] },
        configuration: { title: 'Desk', properties: { 'desk.backend': { type: 'string', enum: ['auto', 'google'], enumDescriptions: ['Pick', 'Google'], markdownDescription: 'Which' } } },
        walkthroughs: [{ id: 'desk.start', title: 'Start', description: 'D', steps: [{ id: 'one', title: 'One', description: 'd', media: { image: 'x.png', altText: 'Alt' } }] }],
      },
    };
    const before = JSON.parse(JSON.stringify(pkg)) as typeof pkg;
    const first = manifest.extract(pkg, {});
    assert.deepEqual(first.errors, []);
    assert.equal(first.moved.length, 17);
    assert.deepEqual(Object.keys(first.nls), [
      'desk.displayName', 'desk.view.tasks.name', 'desk.view.tasks.contextualTitle', 'desk.viewsWelcome.tasks.0',
      'desk.command.tasks.addTask.title', 'desk.category.desk', 'desk.command.tasks.refresh.title', 'desk.configuration.title',
      'desk.config.backend.enumDescriptions.auto', 'desk.config.backend.enumDescriptions.google', 'desk.config.backend.markdownDescription',
      'desk.walkthrough.start.title', 'desk.walkthrough.start.description', 'desk.walkthrough.start.step.one.title',
      'desk.walkthrough.start.step.one.description', 'desk.walkthrough.start.step.one.altText',
    ]);
    assert.equal(pkg.contributes.commands[0]?.title, '%desk.command.tasks.addTask.title%');
    assert.equal(pkg.contributes.commands[0]?.icon, '$(add)');
    assert.deepEqual(pkg.contributes.menus, before.contributes.menus);
    assert.equal(pkg.contributes.viewsWelcome[0]?.when, '!desk:signedIn');
    assert.deepEqual(pkg.contributes.configuration.properties['desk.backend'].enum, ['auto', 'google']);
    assert.deepEqual(manifest.check(pkg, first.nls), []);
    const again = manifest.extract(pkg, first.nls);
    assert.deepEqual(again.moved, []);
    assert.deepEqual(again.nls, first.nls);
  });

  it('a new literal never takes a key another string already uses', () => {
    const pkg = { contributes: { viewsWelcome: [{ view: 'desk.tasks', contents: 'New first' }, { view: 'desk.tasks', contents: '%desk.viewsWelcome.tasks.0%' }] } };
    const result = manifest.extract(pkg, { 'desk.viewsWelcome.tasks.0': 'Old' });
    assert.deepEqual(result.nls, { 'desk.viewsWelcome.tasks.0.2': 'New first', 'desk.viewsWelcome.tasks.0': 'Old' });
  });
});

describe('l10n: the code bundle', () => {
  let scanned: ReturnType<typeof exporter.scan>;
  before(function () {
    this.timeout(60000); // parses every file of src
    scanned = exporter.scan(root);
  });

  it('reads every translated call of src (literal, const, wrapper or declared table)', () => {
    assert.deepEqual(scanned.problems, []);
  });

  it('l10n/bundle.l10n.json holds exactly the messages of src (node scripts/l10n/export.js)', () => {
    const onDisk = readJson(exporter.BUNDLE) as Record<string, Entry>;
    const missing = [...scanned.messages.keys()].filter((key) => !(key in onDisk));
    assert.deepEqual(missing, [], 'messages missing from the bundle: run node scripts/l10n/export.js --pseudo');
    assert.deepEqual(onDisk, exporter.bundle(scanned.messages), 'the bundle is out of date: run node scripts/l10n/export.js --pseudo');
  });

  it('finds the messages of every form of call, and reports the calls it cannot read', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-l10n-'));
    try {
      fs.mkdirSync(path.join(dir, 'src', 'features', 'x'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', 'features', 'x', 'a.ts'), [
        "const HELP = 'Help text';",
        'export function f(vs: any, t: (m: string, ...a: unknown[]) => string, name: string, n: number) {',
        "  vs.l10n.t('Single {0}', name);",
        '  this.vs.l10n.t("Double");',
        '  t(`Template`);',
        "  vs.l10n.t(\n    'On the next line',\n    n,\n  );",
        "  prompts.t('Wrapper caller');",
        "  const inner = `${t('Inside a template')}!`;",
        "  vs.l10n.t({ message: 'With comment', comment: ['a note'] });",
        '  t(HELP);',
        '  t(name);',
        '  t(`Hi ${name}`);',
        "  t('a' + name);",
        "  // t('In a comment')",
        '  return inner;',
        '}',
        'class W { t(message: string, ...args: string[]) { return this.vs.l10n.t(message, ...args); } }',
      ].join('\n'));
      const result = exporter.scan(dir);
      assert.deepEqual([...result.messages.keys()].sort(), ['Double', 'Help text', 'Inside a template', 'On the next line', 'Single {0}', 'Template', 'With comment/a note', 'Wrapper caller']);
      assert.deepEqual(result.messages.get('With comment/a note'), { message: 'With comment', comment: ['a note'] });
      assert.equal(result.problems.length, 3, result.problems.join('\n'));
      assert.match(result.problems[0] ?? '', /a\.ts:14: t\(name\) translates a variable/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('l10n: pseudo-localization (qps-ploc)', () => {
  it('accents every letter and keeps placeholders, codicons, link targets, code and setting references', () => {
    assert.equal(exporter.pseudo('Open {0}'), '⟦Óþéñ {0}⟧');
    const source = '$(sync~spin) See `npx desk-emulator` and #desk.backend#: [Sign In](command:desk.signIn) or https://example.com/a, {1} of {0}';
    const translated = exporter.pseudo(source);
    assert.deepEqual(exporter.protectedParts(translated), exporter.protectedParts(source));
    assert.equal(untranslated(translated), '');
    assert.match(translated, /\[Šíĝñ Íñ\]\(command:desk\.signIn\)/);
  });

  it('l10n/bundle.l10n.qps-ploc.json translates every message of the bundle', () => {
    assertPseudo(readJson(exporter.BUNDLE) as Record<string, Entry>, readJson(exporter.PSEUDO_BUNDLE) as Record<string, Entry>, exporter.PSEUDO_BUNDLE);
  });

  it('package.nls.qps-ploc.json translates every key of package.nls.json', () => {
    assertPseudo(readJson('package.nls.json') as Record<string, Entry>, readJson(exporter.PSEUDO_NLS) as Record<string, Entry>, exporter.PSEUDO_NLS);
  });
});
