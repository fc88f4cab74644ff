#!/usr/bin/env node
/*
 * Validates src/emulator/books/data/catalogue.jsonl (the Books API emulator's catalogue).
 * Usage: node scripts/books/check-catalogue.js [path/to/catalogue.jsonl]
 * Checks: every line parses as a JSON object; required fields present and typed;
 * no unknown fields; >= 1000 entries; no duplicate title + first author;
 * isbn10/isbn13 check digits valid (and consistent with each other when both present);
 * publicDomain matches the "first published before 1929" rule.
 * Prints every bad line number with the reason and exits 1 if anything is wrong.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const MIN_ENTRIES = 1000;
const file = process.argv[2] ||
  path.join(__dirname, '..', '..', 'src', 'emulator', 'books', 'data', 'catalogue.jsonl');

const KNOWN = new Set(['title', 'subtitle', 'authors', 'publisher', 'publishedDate', 'language',
  'categories', 'pageCount', 'description', 'isbn13', 'isbn10', 'publicDomain']);

function isbn10Valid(s) {
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (s[i] === 'X' ? 10 : Number(s[i])) * (10 - i);
  return sum % 11 === 0;
}
function isbn13Valid(s) {
  if (!/^97[89]\d{10}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(s[i]) * (i % 2 ? 3 : 1);
  return sum % 10 === 0;
}
function isbn10To13(s) {
  const body = '978' + s.slice(0, 9);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}
const isNonEmptyString = (v) => typeof v === 'string' && v.trim().length > 0;
const isStringArray = (v) => Array.isArray(v) && v.length > 0 && v.every(isNonEmptyString);

function checkEntry(o) {
  const errs = [];
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return ['not a JSON object'];
  for (const k of Object.keys(o)) if (!KNOWN.has(k)) errs.push(`unknown field "${k}"`);
  if (!isNonEmptyString(o.title)) errs.push('title missing or not a non-empty string');
  if ('subtitle' in o && !isNonEmptyString(o.subtitle)) errs.push('subtitle not a non-empty string');
  if (!isStringArray(o.authors)) errs.push('authors missing or not a non-empty array of strings');
  if ('publisher' in o && !isNonEmptyString(o.publisher)) errs.push('publisher not a non-empty string');
  if (typeof o.publishedDate !== 'string' || !/^\d{4}(-\d{2}-\d{2})?$/.test(o.publishedDate)) {
    errs.push('publishedDate missing or not YYYY / YYYY-MM-DD');
  } else if (o.publishedDate.length === 10) {
    const d = new Date(o.publishedDate + 'T00:00:00Z');
    if (isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== o.publishedDate) errs.push('publishedDate is not a real calendar date');
  }
  if (typeof o.language !== 'string' || !/^[a-z]{2}$/.test(o.language)) errs.push('language missing or not an ISO 639-1 code');
  if (!isStringArray(o.categories)) errs.push('categories missing or not a non-empty array of strings');
  if ('pageCount' in o && !(Number.isInteger(o.pageCount) && o.pageCount > 0)) errs.push('pageCount not a positive integer');
  if (!isNonEmptyString(o.description)) errs.push('description missing or empty');
  else if (o.description.length >= 300) errs.push(`description is ${o.description.length} characters (limit < 300)`);
  if ('isbn13' in o && !(typeof o.isbn13 === 'string' && isbn13Valid(o.isbn13))) errs.push(`isbn13 "${o.isbn13}" invalid (format or check digit)`);
  if ('isbn10' in o && !(typeof o.isbn10 === 'string' && isbn10Valid(o.isbn10))) errs.push(`isbn10 "${o.isbn10}" invalid (format or check digit)`);
  if (typeof o.isbn10 === 'string' && typeof o.isbn13 === 'string' && isbn10Valid(o.isbn10) &&
      isbn13Valid(o.isbn13) && o.isbn13.startsWith('978') && isbn10To13(o.isbn10) !== o.isbn13) {
    errs.push(`isbn10 ${o.isbn10} and isbn13 ${o.isbn13} are not the same edition`);
  }
  if (typeof o.publicDomain !== 'boolean') errs.push('publicDomain missing or not boolean');
  else if (typeof o.publishedDate === 'string' && /^\d{4}/.test(o.publishedDate)) {
    const expected = parseInt(o.publishedDate, 10) < 1929;
    if (o.publicDomain !== expected) errs.push(`publicDomain should be ${expected} for a first publication in ${o.publishedDate.slice(0, 4)}`);
  }
  return errs;
}

function main() {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch (e) {
    console.error(`cannot read ${file}: ${e.message}`);
    process.exit(1);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let bad = 0, entries = 0, isbns = 0;
  const seen = new Map();
  const cats = new Map(), langs = new Map();
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === '') { console.error(`line ${n}: empty line`); bad++; return; }
    let o;
    try { o = JSON.parse(line); } catch (e) { console.error(`line ${n}: does not parse: ${e.message}`); bad++; return; }
    const errs = checkEntry(o);
    if (o && typeof o === 'object' && isNonEmptyString(o.title) && isStringArray(o.authors)) {
      const key = o.title.trim().toLowerCase() + '\u0000' + o.authors[0].trim().toLowerCase();
      if (seen.has(key)) errs.push(`duplicate of line ${seen.get(key)} (same title + first author)`);
      else seen.set(key, n);
    }
    if (errs.length) { bad++; for (const e of errs) console.error(`line ${n}: ${e}`); return; }
    entries++;
    if (o.isbn10 || o.isbn13) isbns++;
    for (const c of o.categories) cats.set(c, (cats.get(c) || 0) + 1);
    langs.set(o.language, (langs.get(o.language) || 0) + 1);
  });
  if (lines.length < MIN_ENTRIES) { console.error(`only ${lines.length} entries (need at least ${MIN_ENTRIES})`); bad++; }
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log(`${path.relative(process.cwd(), file) || file}: ${lines.length} lines, ${entries} valid entries, ${isbns} with ISBNs`);
  console.log(`languages: ${top(langs)}`);
  console.log(`categories: ${top(cats)}`);
  if (bad) { console.error(`FAILED: ${bad} problem(s)`); process.exit(1); }
  console.log('OK');
}

main();
