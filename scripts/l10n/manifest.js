#!/usr/bin/env node
/**
 * The manifest's words live in package.nls.json; package.json holds `%key%` references to them.
 *
 *   node scripts/l10n/manifest.js           moves every user-facing literal of package.json into package.nls.json
 *                                           (re-run it after adding a command, a view, a setting or a step)
 *   node scripts/l10n/manifest.js --check   exits 1 when package.json holds a user-facing literal, a `%key%`
 *                                           missing from package.nls.json, or package.nls.json a key nothing uses
 *
 * Keys follow the ids (`desk.command.tasks.addTask.title`, `desk.view.tasks.name`, `desk.config.backend.description`,
 * `desk.walkthrough.start.step.emulator.title`, …), so a re-run gives the same keys. package.json is read, changed and
 * written back at once (2-space JSON, trailing newline) and only at the string sites listed in `sites` below: ids,
 * `when` clauses, menus and everything else stay as they are. package.nls.json is written in manifest order.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const REFERENCE = /^%([^%\s]+)%$/;

/** `desk.tasks.addTask` → `tasks.addTask`: the keys are already under `desk.`. */
function short(id) {
  return String(id).replace(/^desk\./, '');
}

/** A key segment from free text (a category such as "Desk" → `desk`). */
function slug(text) {
  const words = String(text).split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1))).join('') || 'text';
}

/**
 * Every user-facing string site of the manifest, in manifest order: `{ holder, prop, key, where }` where
 * `holder[prop]` is the string (a literal or a `%key%` reference) and `key` the key it gets when it is a literal.
 */
function sites(pkg) {
  const out = [];
  const add = (holder, prop, key, where) => {
    if (holder && typeof holder[prop] === 'string') out.push({ holder, prop, key, where });
  };
  add(pkg, 'displayName', 'desk.displayName', 'displayName');
  add(pkg, 'description', 'desk.description', 'description');
  const c = pkg.contributes ?? {};

  for (const [i, provider] of (c.authentication ?? []).entries()) {
    add(provider, 'label', `desk.authentication.${short(provider.id ?? i)}.label`, `contributes.authentication[${i}].label`);
  }
  for (const [location, containers] of Object.entries(c.viewsContainers ?? {})) {
    for (const [i, container] of containers.entries()) {
      add(container, 'title', `desk.viewsContainer.${short(container.id ?? `${location}.${i}`)}.title`, `contributes.viewsContainers.${location}[${i}].title`);
    }
  }
  for (const [container, views] of Object.entries(c.views ?? {})) {
    for (const [i, view] of views.entries()) {
      const base = `desk.view.${short(view.id ?? `${container}.${i}`)}`;
      add(view, 'name', `${base}.name`, `contributes.views.${container}[${i}].name`);
      add(view, 'contextualTitle', `${base}.contextualTitle`, `contributes.views.${container}[${i}].contextualTitle`);
    }
  }
  const welcomeCount = new Map();
  for (const [i, welcome] of (c.viewsWelcome ?? []).entries()) {
    const view = short(welcome.view ?? 'view');
    const n = welcomeCount.get(view) ?? 0;
    welcomeCount.set(view, n + 1);
    add(welcome, 'contents', `desk.viewsWelcome.${view}.${n}`, `contributes.viewsWelcome[${i}].contents`);
  }
  for (const [i, command] of (c.commands ?? []).entries()) {
    const base = `desk.command.${short(command.command ?? i)}`;
    add(command, 'title', `${base}.title`, `contributes.commands[${i}].title`);
    add(command, 'shortTitle', `${base}.shortTitle`, `contributes.commands[${i}].shortTitle`);
    if (typeof command.category === 'string') {
      const literal = !REFERENCE.test(command.category);
      add(command, 'category', literal ? `desk.category.${slug(command.category)}` : '', `contributes.commands[${i}].category`);
    }
  }
  for (const [i, submenu] of (c.submenus ?? []).entries()) {
    add(submenu, 'label', `desk.submenu.${short(submenu.id ?? i)}.label`, `contributes.submenus[${i}].label`);
  }
  const configurations = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
  for (const [i, configuration] of configurations.entries()) {
    const prefix = Array.isArray(c.configuration) ? `contributes.configuration[${i}]` : 'contributes.configuration';
    add(configuration, 'title', Array.isArray(c.configuration) && i > 0 ? `desk.configuration.${i}.title` : 'desk.configuration.title', `${prefix}.title`);
    for (const [name, schema] of Object.entries(configuration.properties ?? {})) schemaSites(schema, `desk.config.${short(name)}`, `${prefix}.properties["${name}"]`, add);
  }
  for (const [i, walkthrough] of (c.walkthroughs ?? []).entries()) {
    const base = `desk.walkthrough.${short(walkthrough.id ?? i)}`;
    add(walkthrough, 'title', `${base}.title`, `contributes.walkthroughs[${i}].title`);
    add(walkthrough, 'description', `${base}.description`, `contributes.walkthroughs[${i}].description`);
    for (const [j, step] of (walkthrough.steps ?? []).entries()) {
      const stepBase = `${base}.step.${step.id ?? j}`;
      const where = `contributes.walkthroughs[${i}].steps[${j}]`;
      add(step, 'title', `${stepBase}.title`, `${where}.title`);
      add(step, 'description', `${stepBase}.description`, `${where}.description`);
      add(step.media, 'altText', `${stepBase}.altText`, `${where}.media.altText`);
    }
  }
  return out;
}

/** A setting's schema: its descriptions, its enum descriptions (keyed by the enum value), and nested schemas. */
function schemaSites(schema, base, where, add) {
  if (!schema || typeof schema !== 'object') return;
  for (const prop of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage']) add(schema, prop, `${base}.${prop}`, `${where}.${prop}`);
  for (const prop of ['enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels']) {
    const list = schema[prop];
    if (!Array.isArray(list)) continue;
    for (const [i] of list.entries()) {
      const value = Array.isArray(schema.enum) && i < schema.enum.length ? slug(String(schema.enum[i])) : String(i);
      add(list, i, `${base}.${prop}.${value}`, `${where}.${prop}[${i}]`);
    }
  }
  if (schema.items) schemaSites(schema.items, `${base}.items`, `${where}.items`, add);
  for (const [name, inner] of Object.entries(schema.properties ?? {})) schemaSites(inner, `${base}.properties.${slug(name)}`, `${where}.properties["${name}"]`, add);
}

/** Every `%key%` string anywhere in the manifest (not only at the known sites). */
function references(value, where = '', out = []) {
  if (typeof value === 'string') {
    const match = REFERENCE.exec(value);
    if (match) out.push({ key: match[1], where });
  } else if (Array.isArray(value)) value.forEach((item, i) => references(item, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) references(item, where ? `${where}.${name}` : name, out);
  return out;
}

function nlsText(entry) {
  return typeof entry === 'string' ? entry : entry && typeof entry === 'object' && typeof entry.message === 'string' ? entry.message : undefined;
}

/** Problems of a manifest and its nls file, as sentences; empty when all is well. */
function check(pkg, nls) {
  const problems = [];
  for (const site of sites(pkg)) {
    const value = site.holder[site.prop];
    if (!REFERENCE.test(value)) problems.push(`${site.where} is a literal (${JSON.stringify(value)}): run node scripts/l10n/manifest.js`);
  }
  const used = new Set();
  for (const { key, where } of references(pkg)) {
    used.add(key);
    if (nlsText(nls[key]) === undefined) problems.push(`${where} refers to %${key}%, which package.nls.json does not define`);
  }
  for (const key of Object.keys(nls)) if (!used.has(key)) problems.push(`package.nls.json defines ${key}, which package.json does not use`);
  return problems;
}

/** Moves the literals into `nls`; returns the new nls object (manifest order) and what changed. Mutates `pkg`. */
function extract(pkg, nls) {
  const taken = new Map(); // key → text, for every key the manifest refers to after this run
  const moved = [];
  const errors = [];
  const all = sites(pkg);
  for (const { key, where } of references(pkg)) {
    const text = nlsText(nls[key]);
    if (text === undefined) errors.push(`${where} refers to %${key}%, which package.nls.json does not define`);
    else taken.set(key, text);
  }
  for (const site of all) {
    const value = site.holder[site.prop];
    if (REFERENCE.test(value)) continue;
    let key = site.key;
    for (let n = 2; taken.has(key) && taken.get(key) !== value; n++) key = `${site.key}.${n}`;
    taken.set(key, value);
    site.holder[site.prop] = `%${key}%`;
    moved.push({ key, where: site.where });
  }
  const ordered = {};
  for (const { key } of references(pkg)) {
    if (key in ordered || !taken.has(key)) continue;
    // Keep an entry's comment form ({ message, comment }) when its text did not change.
    ordered[key] = nlsText(nls[key]) === taken.get(key) ? nls[key] : taken.get(key);
  }
  const dropped = Object.keys(nls).filter((key) => !(key in ordered));
  return { nls: ordered, moved, dropped, errors };
}

function readJson(file, fallback) {
  if (!fs.existsSync(file)) return fallback;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function main(argv) {
  const root = path.resolve(__dirname, '..', '..');
  const rootArg = argv.indexOf('--root');
  const dir = rootArg >= 0 ? path.resolve(argv[rootArg + 1]) : root;
  const manifestFile = path.join(dir, 'package.json');
  const nlsFile = path.join(dir, 'package.nls.json');
  if (argv.includes('--check')) {
    const problems = check(readJson(manifestFile), readJson(nlsFile, {}));
    for (const problem of problems) console.error(`l10n: ${problem}`);
    if (problems.length === 0) console.log(`l10n: package.json and package.nls.json agree (${sites(readJson(manifestFile)).length} strings).`);
    return problems.length === 0 ? 0 : 1;
  }
  // Read, change and write package.json in one go: others may be editing it.
  const pkg = readJson(manifestFile);
  const result = extract(pkg, readJson(nlsFile, {}));
  if (result.errors.length > 0) {
    for (const error of result.errors) console.error(`l10n: ${error}`);
    return 1;
  }
  if (result.moved.length > 0) writeJson(manifestFile, pkg);
  writeJson(nlsFile, result.nls);
  console.log(`l10n: ${result.moved.length} literal(s) moved to package.nls.json, ${result.dropped.length} unused key(s) dropped, ${Object.keys(result.nls).length} key(s) in all.`);
  return 0;
}

module.exports = { sites, references, check, extract, short, slug };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
