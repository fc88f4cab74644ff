#!/usr/bin/env node
/**
 * The code's messages, for VS Code's `l10n` bundles (what `@vscode/l10n-dev export` does, for this code base).
 *
 *   node scripts/l10n/export.js            writes l10n/bundle.l10n.json: every message → itself, sorted
 *   node scripts/l10n/export.js --pseudo   the same, plus l10n/bundle.l10n.qps-ploc.json and package.nls.qps-ploc.json
 *                                          (pseudo-localized: ⟦Áççéñtéð⟧, placeholders, codicons, link targets,
 *                                          `code` and #setting# references kept), for a run with `--locale qps-ploc`
 *   node scripts/l10n/export.js --check    exits 1 when a bundle is out of date or a translated call cannot be read
 *
 * A message is the first argument of a call of `t` — `vs.l10n.t('…')`, `this.vs.l10n.t("…")`, `t(\`…\`)`,
 * `this.t('…')`, `prompts.t('…')`, `kit.t('…')`: every translator in src is `vscode.l10n.t` or a function handed
 * `vscode.l10n.t` (the pure modules take it as a `t` parameter). The first argument must be a string literal, a
 * template without `${}`, the `{ message, comment }` form, a constant holding a string literal, a parameter of the
 * enclosing function (a wrapper passing its message on), or one of the `INDIRECT` sources below; anything else is
 * reported, so no message escapes the bundle.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..');

/** Messages kept in a table and translated through a variable: `file`'s `t(argument)` takes them from `from`. */
const INDIRECT = [
  // `for (const [prefix, meaning] of PREFIXES) … t(meaning)`: the second element of each pair.
  { file: 'src/features/books/search/searchPicker.ts', argument: 'meaning', from: 'PREFIXES', element: 1 },
];

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

function isStatic(node) {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
}

function isTranslatorCall(node) {
  if (!ts.isCallExpression(node) || node.arguments.length === 0) return false;
  const callee = node.expression;
  return (ts.isIdentifier(callee) && callee.text === 't') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
}

/**
 * A wrapper passing its message on, `t(message, ...args) { return this.vs.l10n.t(message, ...args); }`: the call's
 * first argument is a parameter of the enclosing function and its last spreads that function's rest parameter.
 */
function isForwarder(call) {
  let fn = call.parent;
  while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
  if (!fn) return false;
  const names = fn.parameters.map((parameter) => (ts.isIdentifier(parameter.name) ? parameter.name.text : ''));
  const rest = fn.parameters.find((parameter) => parameter.dotDotDotToken && ts.isIdentifier(parameter.name));
  const last = call.arguments[call.arguments.length - 1];
  const first = call.arguments[0];
  return Boolean(rest && call.arguments.length === 2 && names.includes(first.text) && ts.isSpreadElement(last) && ts.isIdentifier(last.expression) && last.expression.text === rest.name.text);
}

/** `const NAME = '…'` anywhere in the files: constants a call may translate. */
function stringConstants(parsed) {
  const constants = new Map();
  for (const { source } of parsed) {
    const visit = (node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isStatic(node.initializer) && ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const) {
        const seen = constants.get(node.name.text);
        constants.set(node.name.text, seen === undefined || seen === node.initializer.text ? node.initializer.text : null); // null: ambiguous
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return constants;
}

/** The strings of an INDIRECT table: element `element` of each array of the initializer of `const from`. */
function indirectMessages(source, spec) {
  const found = [];
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === spec.from && node.initializer && ts.isArrayLiteralExpression(node.initializer)) {
      for (const row of node.initializer.elements) {
        const cell = ts.isArrayLiteralExpression(row) ? row.elements[spec.element] : undefined;
        if (cell && isStatic(cell)) found.push({ message: cell.text, line: source.getLineAndCharacterOfPosition(cell.getStart(source)).line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Scans the files: `messages` maps each bundle key to its entry (a string, or `{ message, comment }`), `sites` says
 * where each comes from, `problems` lists the calls that could not be read.
 */
function scan(root = ROOT) {
  const files = sourceFiles(path.join(root, 'src'));
  const parsed = files.map((file) => ({ file: path.relative(root, file).split(path.sep).join('/'), source: ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) }));
  const constants = stringConstants(parsed);
  const messages = new Map();
  const sites = [];
  const problems = [];
  const add = (key, entry, where) => {
    if (!messages.has(key)) messages.set(key, entry);
    sites.push({ key, where });
  };
  for (const { file, source } of parsed) {
    const where = (node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node) => {
      if (isTranslatorCall(node)) {
        const first = node.arguments[0];
        if (isStatic(first)) add(first.text, first.text, where(node));
        else if (ts.isObjectLiteralExpression(first)) {
          const property = (name) => first.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name);
          const message = property('message');
          const comment = property('comment');
          const comments = !comment ? [] : isStatic(comment.initializer) ? [comment.initializer.text] : ts.isArrayLiteralExpression(comment.initializer) && comment.initializer.elements.every(isStatic) ? comment.initializer.elements.map((e) => e.text) : undefined;
          if (!message || !isStatic(message.initializer) || comments === undefined) problems.push(`${where(node)}: t({ message, comment }) needs literal message and comment`);
          else if (comments.length === 0) add(message.initializer.text, message.initializer.text, where(node));
          else add(`${message.initializer.text}/${comments.join('')}`, { message: message.initializer.text, comment: comments }, where(node));
        } else if (ts.isIdentifier(first)) {
          const indirect = INDIRECT.find((spec) => spec.file === file && spec.argument === first.text);
          if (indirect) {
            const found = indirectMessages(source, indirect);
            if (found.length === 0) problems.push(`${where(node)}: t(${first.text}) is declared as taken from ${indirect.from}, which holds no strings`);
            for (const { message, line } of found) add(message, message, `${file}:${line}`);
          } else if (isForwarder(node)) {
            // A wrapper such as `t(message, ...args) { return this.vs.l10n.t(message, ...args); }`: its callers are scanned.
          } else if (typeof constants.get(first.text) === 'string') add(constants.get(first.text), constants.get(first.text), where(node));
          else problems.push(`${where(node)}: t(${first.text}) translates a variable; use a literal, a const string or add it to INDIRECT in scripts/l10n/export.js`);
        } else {
          problems.push(`${where(node)}: t(${first.getText(source).slice(0, 60)}) does not start with a literal message`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages, sites, problems, files: parsed.length };
}

/** The bundle: messages sorted by key (code unit order, so every machine sorts alike). */
function bundle(messages) {
  const out = {};
  for (const key of [...messages.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = messages.get(key);
  return out;
}

// ---- pseudo-localization

const ACCENTS = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ', n: 'ñ', o: 'ó', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ú', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ', N: 'Ñ', O: 'Ó', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Ú', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/**
 * What a translation must keep as it is: `{0}` placeholders, `$(codicon)`s, markdown link targets `](…)`,
 * `code` spans, `#setting.id#` references and bare web addresses.
 */
const PROTECTED = /\{\d+\}|\$\([A-Za-z0-9~-]+\)|\]\([^)\s]*\)|`[^`]*`|#[A-Za-z][\w.-]*#|https?:\/\/[^\s)]+/g;

function protectedParts(text) {
  return (text.match(PROTECTED) ?? []).slice().sort();
}

/** `Open {0}` → `⟦Óþéñ {0}⟧`: every letter outside the protected parts accented, the whole in brackets. */
function pseudo(text) {
  let out = '';
  let last = 0;
  const accent = (part) => part.replace(/[A-Za-z]/g, (letter) => ACCENTS[letter]);
  for (const match of text.matchAll(PROTECTED)) {
    out += accent(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return `⟦${out + accent(text.slice(last))}⟧`;
}

function pseudoEntry(entry) {
  return typeof entry === 'string' ? pseudo(entry) : { ...entry, message: pseudo(entry.message) };
}

function pseudoBundle(values) {
  const out = {};
  for (const [key, entry] of Object.entries(values)) out[key] = pseudoEntry(entry);
  return out;
}

// ---- files

const BUNDLE = 'l10n/bundle.l10n.json';
const PSEUDO_BUNDLE = 'l10n/bundle.l10n.qps-ploc.json';
const PSEUDO_NLS = 'package.nls.qps-ploc.json';

function json(value) {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The files this script writes, by path relative to the root, with their content. */
function outputs(root = ROOT, { pseudo: withPseudo = false } = {}) {
  const result = scan(root);
  const code = bundle(result.messages);
  const files = { [BUNDLE]: json(code) };
  if (withPseudo) {
    files[PSEUDO_BUNDLE] = json(pseudoBundle(code));
    files[PSEUDO_NLS] = json(pseudoBundle(JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'))));
  }
  return { files, result };
}

function main(argv) {
  const rootArg = argv.indexOf('--root');
  const root = rootArg >= 0 ? path.resolve(argv[rootArg + 1]) : ROOT;
  const check = argv.includes('--check');
  const { files, result } = outputs(root, { pseudo: argv.includes('--pseudo') || check });
  for (const problem of result.problems) console.error(`l10n: ${problem}`);
  if (check) {
    let stale = 0;
    for (const [file, content] of Object.entries(files)) {
      const full = path.join(root, file);
      if (!fs.existsSync(full) || fs.readFileSync(full, 'utf8') !== content) {
        stale++;
        console.error(`l10n: ${file} is out of date: run node scripts/l10n/export.js --pseudo`);
      }
    }
    if (stale === 0 && result.problems.length === 0) console.log(`l10n: ${result.messages.size} messages, bundles up to date.`);
    return stale === 0 && result.problems.length === 0 ? 0 : 1;
  }
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  console.log(`l10n: ${result.messages.size} messages from ${result.sites.length} calls in ${result.files} files → ${Object.keys(files).join(', ')}`);
  return result.problems.length === 0 ? 0 : 1;
}

module.exports = { scan, bundle, pseudo, pseudoBundle, protectedParts, outputs, INDIRECT, BUNDLE, PSEUDO_BUNDLE, PSEUDO_NLS };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
