/**
 * The inverted index behind the volume search: MiniSearch's radix tree (SearchableMap) holds the vocabulary and does
 * the prefix and typo expansion, and flat typed-array postings are scored with MiniSearch's BM25+ arithmetic, step for
 * step, so every match gets the score (to the last bit) and the place among equal scores that MiniSearch.search gives
 * it. Why not MiniSearch.search itself: it builds, filters and sorts a result object per match (about 1 µs each), and
 * a common word matches 5–15 % of a 100,000-volume catalogue while a page shows ten; here a match costs a few array
 * reads, and the caller sorts only the page it shows. The postings also take a tenth of MiniSearch's Maps of Maps.
 *
 * Beyond MiniSearch, each match carries how closely it matched (MatchLevel): a document that has every query word
 * itself ranks before one reached through a longer word, which ranks before one reached only through a typo, so "pride"
 * finds Pride and Prejudice and the books that say "pride" before The Bride of Lammermoor (MiniSearch's scores alone
 * let a fuzzy title match beat an exact word in a description).
 */
import SearchableMap from 'minisearch/SearchableMap';

/** MiniSearch's default SearchOptions.bm25 and .weights, which the search always used. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** One query term, as MiniSearch's executeQuerySpec takes it. */
export interface TermQuery {
  readonly kind: 'term';
  /** Processed (normalised) term. */
  readonly term: string;
  /** Also match longer terms that start with it. */
  readonly prefix: boolean;
  /** Also match terms this many edits away (0: exact only). */
  readonly fuzzy: number;
  /** Field numbers to look in, in the order MiniSearch would visit them. */
  readonly fields: readonly number[];
  /** BM25 weight per field number. */
  readonly boosts: readonly number[];
}

/** All subqueries must match; scores add up in order (MiniSearch's AND). An empty AND matches nothing. */
export interface AndQuery {
  readonly kind: 'and';
  readonly queries: readonly QueryNode[];
}

export type QueryNode = TermQuery | AndQuery;

/** How a document matched a query term: the term itself, a longer word it starts (prefix), or a typo away (fuzzy). */
export const MatchLevel = { fuzzy: 0, prefix: 1, exact: 2 } as const;

/** An indexed term a query term reached, with the weight of the way it got there. */
interface DerivedTerm {
  readonly term: string;
  readonly id: number;
  readonly weight: number;
  /** MatchLevel of the way. */
  readonly level: number;
}

interface CompiledTerm {
  readonly kind: 'term';
  readonly query: TermQuery;
  /** Exact term first, then prefix, then fuzzy matches, in MiniSearch's order. */
  readonly derived: readonly DerivedTerm[];
}

interface CompiledAnd {
  readonly kind: 'and';
  readonly queries: readonly CompiledNode[];
}

type CompiledNode = CompiledTerm | CompiledAnd;

/** A query with its terms looked up once, for scoring and then for the matched terms of the page's hits. */
export interface CompiledQuery {
  readonly root: CompiledNode;
  /** Distinct query terms: MiniSearch multiplies every score by how many of them a document matched (all, under AND). */
  readonly quality: number;
}

/** Matches in MiniSearch's result order (the order its stable sort keeps among equal scores), with their scores. */
export interface Matches {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /**
   * Per match, the loosest MatchLevel among its query terms (an AND is as close as its loosest part); undefined when
   * every match is exact (exact-only terms, the common case of field clauses), which spares the bookkeeping.
   */
  readonly levels: Uint8Array | undefined;
}

/** Documents whose every contribution is multiplied by `factor` (MiniSearch's boostDocument). */
export interface DocumentBoost {
  readonly docs: ReadonlySet<number>;
  readonly factor: number;
}

export interface TermIndexSource {
  readonly documentCount: number;
  readonly fieldCount: number;
  /** The text of one field of one document (document and field by number). */
  fieldText(doc: number, field: number): string;
  /** Splits a field's text into raw tokens; their distinct count is the field's length, as in MiniSearch. */
  tokenize(text: string): string[];
  /** A raw token as an indexed term; null drops it. */
  processTerm(token: string): string | null;
}

/** A typed array that grows by doubling, for the postings while they are collected. */
class GrowableInt32 {
  values = new Int32Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Int32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }
}

/** What reading the documents gives: the vocabulary, field lengths, and the postings in document order. */
interface CollectedPostings {
  readonly vocabulary: SearchableMap<number>;
  readonly fieldLengths: Int32Array;
  readonly averageFieldLength: Float64Array;
  readonly keys: GrowableInt32;
  readonly docs: GrowableInt32;
  readonly freqs: GrowableInt32;
  readonly termCount: number;
}

/** Documents read between two pauses of a building index (a 100,000-volume catalogue takes about a second). */
const DOCUMENTS_PER_STEP = 64;

/** Reads every document's fields into postings, pausing (yield) every few documents. */
function* collectPostings(source: TermIndexSource): Generator<void, CollectedPostings> {
  const count = source.documentCount;
  const fields = source.fieldCount;
  const vocabulary = new SearchableMap<number>();
  const fieldLengths = new Int32Array(count * fields);
  const averageFieldLength = new Float64Array(fields);
  const keys = new GrowableInt32();
  const docs = new GrowableInt32();
  const freqs = new GrowableInt32();
  // Tokens repeat across documents; normalising each distinct one once makes the build several times faster.
  const processed = new Map<string, string | null>();
  let nextTermId = 0;
  const newTermId = (): number => nextTermId++;
  const inField = new Map<number, number>();
  for (let doc = 0; doc < count; doc++) {
    if (doc % DOCUMENTS_PER_STEP === DOCUMENTS_PER_STEP - 1) yield;
    for (let field = 0; field < fields; field++) {
      const tokens = source.tokenize(source.fieldText(doc, field));
      const length = new Set(tokens).size;
      fieldLengths[doc * fields + field] = length;
      // MiniSearch's running average, the same float operations in the same order.
      const average = averageFieldLength[field];
      averageFieldLength[field] = (average * doc + length) / (doc + 1);
      inField.clear();
      for (const token of tokens) {
        let term = processed.get(token);
        if (term === undefined) {
          term = source.processTerm(token);
          processed.set(token, term);
        }
        if (!term) continue;
        const id = vocabulary.fetch(term, newTermId);
        inField.set(id, (inField.get(id) ?? 0) + 1);
      }
      for (const [id, frequency] of inField) {
        keys.push(id * fields + field);
        docs.push(doc);
        freqs.push(frequency);
      }
    }
  }
  return { vocabulary, fieldLengths, averageFieldLength, keys, docs, freqs, termCount: nextTermId };
}

function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export class TermIndex {
  /** Term → term number. Filled in MiniSearch's insertion order, so the tree and its iteration order are the same. */
  readonly vocabulary: SearchableMap<number>;
  readonly documentCount: number;
  private readonly fieldCount: number;
  /** Postings of (term, field) are postingDocs[postingStart[t * F + f] .. postingStart[t * F + f + 1]), ascending. */
  private readonly postingStart: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingFreqs: Int32Array;
  /** Distinct tokens per document and field (doc * F + f). */
  private readonly fieldLengths: Int32Array;
  private readonly averageFieldLength: Float64Array;
  /** Scratch for scoring: which documents the current pass has seen, and their running scores. */
  private readonly seen: Int32Array;
  private readonly running: Float64Array;
  private readonly order: Int32Array;
  private readonly runningLevel: Uint8Array;
  private pass = 0;

  /** The index of `source`, built in one go; `TermIndex.build` builds it letting other work in between. */
  constructor(source: TermIndexSource, collected: CollectedPostings = drain(collectPostings(source))) {
    const count = source.documentCount;
    const fields = source.fieldCount;
    this.documentCount = count;
    this.fieldCount = fields;
    this.vocabulary = collected.vocabulary;
    this.fieldLengths = collected.fieldLengths;
    this.averageFieldLength = collected.averageFieldLength;
    const { keys, docs, freqs, termCount: nextTermId } = collected;
    // Counting sort by (term, field): stable, so each posting stays in document order.
    const start = new Int32Array(nextTermId * fields + 1);
    for (let index = 0; index < keys.length; index++) start[(keys.values[index]) + 1]++;
    for (let key = 1; key < start.length; key++) start[key] = (start[key]) + (start[key - 1]);
    const fill = start.slice(0, start.length - 1);
    this.postingDocs = new Int32Array(keys.length);
    this.postingFreqs = new Int32Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const at = fill[keys.values[index]]++;
      this.postingDocs[at] = docs.values[index];
      this.postingFreqs[at] = freqs.values[index];
    }
    this.postingStart = start;
    this.seen = new Int32Array(count);
    this.running = new Float64Array(count);
    this.order = new Int32Array(count);
    this.runningLevel = new Uint8Array(count);
  }

  /** The same index, built in steps with `pause()` awaited between them (a search must not hold the server). */
  static async build(source: TermIndexSource, pause: () => Promise<void>): Promise<TermIndex> {
    const steps = collectPostings(source);
    for (;;) {
      const next = steps.next();
      if (next.done) return new TermIndex(source, next.value);
      await pause();
    }
  }

  get termCount(): number {
    return this.vocabulary.size;
  }

  /** Looks the terms up: the exact term, then prefix and fuzzy expansions, as MiniSearch's executeQuerySpec does. */
  compile(query: QueryNode): CompiledQuery {
    const terms = new Set<string>();
    const compileNode = (node: QueryNode): CompiledNode => {
      if (node.kind === 'and') return { kind: 'and', queries: node.queries.map(compileNode) };
      terms.add(node.term);
      const derived: DerivedTerm[] = [];
      const exact = this.vocabulary.get(node.term);
      if (exact !== undefined) derived.push({ term: node.term, id: exact, weight: 1, level: MatchLevel.exact });
      const fuzzy = node.fuzzy > 0 ? this.vocabulary.fuzzyGet(node.term, node.fuzzy) : undefined;
      if (node.prefix) {
        for (const [term, id] of this.vocabulary.atPrefix(node.term)) {
          const distance = term.length - node.term.length;
          if (!distance) continue;
          // A term both a prefix and a fuzzy match counts as a prefix match only.
          fuzzy?.delete(term);
          derived.push({ term, id, weight: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance), level: MatchLevel.prefix });
        }
      }
      if (fuzzy) {
        for (const [term, [id, distance]] of fuzzy) {
          if (!distance) continue;
          derived.push({ term, id, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance), level: MatchLevel.fuzzy });
        }
      }
      return { kind: 'term', query: node, derived };
    };
    const root = compileNode(query);
    return { root, quality: terms.size || 1 };
  }

  /** Every match with its final score, in MiniSearch's result order. */
  matches(query: CompiledQuery, boost?: DocumentBoost): Matches {
    const found = this.evaluate(query.root, boost);
    const scores = found.scores;
    for (let index = 0; index < scores.length; index++) scores[index] = (scores[index]) * query.quality;
    return found;
  }

  /** The indexed terms through which a document matched (for the snippet), in the order MiniSearch lists them. */
  matchedTerms(query: CompiledQuery, doc: number): string[] {
    // MiniSearch lists the keys of an object: number-like terms ("1984") first, ascending, then the rest in order.
    const terms: Record<string, true> = Object.create(null) as Record<string, true>;
    const visit = (node: CompiledNode): void => {
      if (node.kind === 'and') {
        node.queries.forEach(visit);
        return;
      }
      for (const derived of node.derived) {
        if (node.query.fields.some((field) => this.contains(derived.id, field, doc))) terms[derived.term] = true;
      }
    };
    visit(query.root);
    return Object.keys(terms);
  }

  private contains(termId: number, field: number, doc: number): boolean {
    const key = termId * this.fieldCount + field;
    let low = this.postingStart[key];
    let high = (this.postingStart[key + 1]) - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.postingDocs[middle];
      if (value === doc) return true;
      if (value < doc) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  private nextPass(): number {
    if (this.pass === 0x7fffffff) {
      this.seen.fill(0);
      this.pass = 0;
    }
    return ++this.pass;
  }

  private evaluate(node: CompiledNode, boost: DocumentBoost | undefined): Matches {
    if (node.kind === 'term') return this.termMatches(node, boost);
    if (node.queries.length === 0) return { docs: new Int32Array(0), scores: new Float64Array(0), levels: undefined };
    let result = this.evaluate(node.queries[0], boost);
    for (let index = 1; index < node.queries.length; index++) result = this.and(result, this.evaluate(node.queries[index], boost));
    return result;
  }

  /** MiniSearch's AND: the documents of both, in the order of the second, scores added (first + second). */
  private and(first: Matches, second: Matches): Matches {
    const pass = this.nextPass();
    const { seen, running, runningLevel } = this;
    const firstLevels = first.levels;
    const secondLevels = second.levels;
    for (let index = 0; index < first.docs.length; index++) {
      const doc = first.docs[index];
      seen[doc] = pass;
      running[doc] = first.scores[index];
      if (firstLevels) runningLevel[doc] = firstLevels[index];
    }
    const size = Math.min(first.docs.length, second.docs.length);
    const docs = new Int32Array(size);
    const scores = new Float64Array(size);
    const levels = firstLevels || secondLevels ? new Uint8Array(size) : undefined;
    let length = 0;
    if (!levels) {
      for (let index = 0; index < second.docs.length; index++) {
        const doc = second.docs[index];
        if (seen[doc] !== pass) continue;
        docs[length] = doc;
        scores[length++] = (running[doc]) + (second.scores[index]);
      }
    } else {
      for (let index = 0; index < second.docs.length; index++) {
        const doc = second.docs[index];
        if (seen[doc] !== pass) continue;
        const firstLevel = firstLevels ? (runningLevel[doc]) : MatchLevel.exact;
        const secondLevel = secondLevels ? (secondLevels[index]) : MatchLevel.exact;
        docs[length] = doc;
        levels[length] = firstLevel < secondLevel ? firstLevel : secondLevel;
        scores[length++] = (running[doc]) + (second.scores[index]);
      }
    }
    return { docs: docs.subarray(0, length), scores: scores.subarray(0, length), levels: levels?.subarray(0, length) };
  }

  /** MiniSearch's termResults over every derived term and field, accumulated per document in the same order. */
  private termMatches(node: CompiledTerm, boost: DocumentBoost | undefined): Matches {
    const pass = this.nextPass();
    const { seen, running, order, postingStart, postingDocs, postingFreqs, fieldLengths, averageFieldLength, documentCount, fieldCount } = this;
    const { k, b, d } = BM25;
    const boosted = boost?.docs;
    const factor = boost?.factor ?? 1;
    const termBoost = 1;
    const graded = node.derived.some((derived) => derived.level !== MatchLevel.exact);
    // Derived terms come exact first, then prefix, then fuzzy, so the documents first reached through one level sit
    // together in `order`: where each level's run ends is all it takes to know every match's level.
    const levelEnds: number[] = [];
    let length = 0;
    for (const derived of node.derived) {
      if (graded) levelEnds[derived.level] = length;
      for (let position = 0; position < node.query.fields.length; position++) {
        const field = node.query.fields[position];
        const fieldBoost = node.query.boosts[position];
        const key = derived.id * fieldCount + field;
        const from = postingStart[key];
        const to = postingStart[key + 1];
        if (from === to) continue;
        const matchingCount = to - from;
        const averageLength = averageFieldLength[field];
        const invDocFreq = Math.log(1 + (documentCount - matchingCount + 0.5) / (matchingCount + 0.5));
        for (let at = from; at < to; at++) {
          const doc = postingDocs[at];
          const termFreq = postingFreqs[at];
          const fieldLength = fieldLengths[doc * fieldCount + field];
          const rawScore = invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / averageLength)));
          const docBoost = boosted !== undefined && boosted.has(doc) ? factor : 1;
          const weightedScore = derived.weight * termBoost * fieldBoost * docBoost * rawScore;
          if (seen[doc] === pass) {
            running[doc] = (running[doc]) + weightedScore;
          } else {
            seen[doc] = pass;
            running[doc] = weightedScore;
            order[length++] = doc;
          }
        }
      }
      if (graded) levelEnds[derived.level] = length;
    }
    const docs = order.slice(0, length);
    const scores = new Float64Array(length);
    for (let index = 0; index < length; index++) scores[index] = running[docs[index]];
    let levels: Uint8Array | undefined;
    if (graded) {
      levels = new Uint8Array(length);
      let from = 0;
      for (const level of [MatchLevel.exact, MatchLevel.prefix, MatchLevel.fuzzy]) {
        const to = levelEnds[level] ?? from;
        levels.fill(level, from, to);
        from = Math.max(from, to);
      }
    }
    return { docs, scores, levels };
  }
}
