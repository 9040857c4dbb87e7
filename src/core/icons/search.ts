import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import { AppError } from '../errors.js';
import { iconCatalog } from './catalog.js';
import {
  ICON_VENDORS,
  isIconVendor,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  type IconVendor,
} from './limits.js';
import { QUERY_SYNONYMS, VENDOR_WORDS } from './synonyms.js';
import type { IconItem, IconRef } from './types.js';
import { dictionary } from '../dictionary.js';

/**
 * Ranked icon search over every library. MiniSearch (an inverted index with a radix tree) does the term matching
 * with prefix and typo tolerance, and two swapped letters are corrected against the index's terms; the ranking on top
 * adds what a diagram author expects: a query that names an item exactly wins, queries whose every word matches beat
 * partial matches (a word and its synonyms count once), and the requested vendor's set comes first.
 */

export interface IconSearchOptions {
  query: string;
  vendor?: IconVendor;
  /** 1–100, default 10. */
  limit?: number;
}

export interface IconSearchResult {
  library: string;
  label: string;
  ref: IconRef;
}

/** Lower-case ASCII words: accents dropped, punctuation as spaces ("Node.js" → "node js"). */
export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const STOP_WORDS = new Set(['and', 'for', 'of', 'on', 'in', 'to', 'the', 'a', 'with']);

/** The names an item answers to exactly: label, aliases, their spaceless forms, and the label's initials. */
function exactNames(item: IconItem, vendorWords: readonly string[]): { label: Set<string>; alias: Set<string> } {
  const labelWords = normalizeWords(item.label);
  const label = new Set([labelWords.join(' '), labelWords.join('')]);
  const alias = new Set<string>();
  for (const name of item.aliases) {
    const words = normalizeWords(name);
    alias.add(words.join(' '));
    alias.add(words.join(''));
  }
  // "AWS Lambda" also answers to "lambda": the library already says the vendor.
  const meaningful = labelWords.filter((word) => !vendorWords.includes(word));
  if (meaningful.length > 0 && meaningful.length < labelWords.length) alias.add(meaningful.join(' '));
  const initialsOf = meaningful.filter((word) => !STOP_WORDS.has(word));
  if (initialsOf.length >= 3) alias.add(initialsOf.map((word) => word[0]).join(''));
  alias.delete('');
  return { label, alias };
}

interface IndexedItem {
  item: IconItem;
  vendor?: IconVendor;
  exact: { label: Set<string>; alias: Set<string> };
  vendorWords: readonly string[];
}

interface SearchIndex {
  miniSearch: MiniSearch<{ id: number; label: string; aliases: string }>;
  entries: IndexedItem[];
  /** Exact-name index for stamping: normalised name → entries answering to it, with how (label or alias). */
  byName: Map<string, Array<{ entry: IndexedItem; via: 'label' | 'alias' }>>;
  /** Every indexed term plus the query-side words (synonyms, vendor words), for correcting transposed letters. */
  vocabulary: Set<string>;
  /** The same, sorted, to tell a partly typed word (a prefix of a known term) from a typo. */
  sortedVocabulary: string[];
}

let searchIndex: SearchIndex | undefined;

/** Built once, on the first search or stamp. */
export function iconSearchIndex(): SearchIndex {
  if (searchIndex) return searchIndex;
  const entries: IndexedItem[] = iconCatalog().libraries.flatMap(({ definition, items }) => {
    const vendorWords = definition.vendorWords ?? [];
    return items.map((item) => ({
      item,
      vendor: definition.vendor,
      vendorWords,
      exact: exactNames(item, vendorWords),
    }));
  });
  // Vendor words are not indexed per item (they would match hundreds of items); a query's vendor word becomes a
  // vendor preference instead, and counts as matched for that vendor's items.
  const miniSearch = new MiniSearch<{ id: number; label: string; aliases: string }>({
    fields: ['label', 'aliases'],
    tokenize: (text) => normalizeWords(text),
    processTerm: (term) => term,
  });
  const documents = entries.map((entry, id) => ({
    id,
    label: entry.item.label,
    aliases: [...entry.item.aliases, ...entry.exact.label, ...entry.exact.alias].join(' | '),
  }));
  miniSearch.addAll(documents);
  const vocabulary = new Set<string>([...Object.keys(QUERY_SYNONYMS), ...Object.keys(VENDOR_WORDS)]);
  for (const { label, aliases } of documents) for (const term of normalizeWords(`${label} ${aliases}`)) vocabulary.add(term);
  const byName = new Map<string, Array<{ entry: IndexedItem; via: 'label' | 'alias' }>>();
  for (const entry of entries) {
    for (const [via, names] of [['label', entry.exact.label], ['alias', entry.exact.alias]] as const) {
      for (const name of names) {
        const list = byName.get(name) ?? [];
        if (!list.some((known) => known.entry === entry)) list.push({ entry, via });
        byName.set(name, list);
      }
    }
  }
  searchIndex = { miniSearch, entries, byName, vocabulary, sortedVocabulary: [...vocabulary].sort() };
  return searchIndex;
}

/** Ranking weights, tuned on the quality table (search-quality.ts). */
const RANK = {
  labelExact: 6,
  aliasExact: 4,
  vendorPreferred: 10,
  /** A vendor's set when that vendor was not asked for: plain words ("cache", "user") mean the generic icon. */
  otherVendor: 0.7,
  /** Database products resolve to the Databases library before a cloud's managed offering of them. */
  databases: 1.3,
  /** Brand names are often ordinary words (Ingress, Square): a cloud or generic icon of that name comes first. */
  brands: 0.5,
} as const;

/**
 * Words that name what a whole library holds: like a vendor word, they count as matched by each of its items, and a
 * query is also compared with its items' names without them ("Postgres DB" is the PostgreSQL product, not Azure's
 * "Database for PostgreSQL" just because that label also says "database").
 */
const LIBRARY_KIND_WORDS: Readonly<Record<string, readonly string[]>> = dictionary({
  databases: ['database', 'databases', 'db', 'dbs'],
});

/** Transposed letters ("postgers", "ngnix") are corrected from this length: shorter words have too many neighbours. */
const TRANSPOSITION_MIN_LENGTH = 5;

const SEARCH_OPTIONS = {
  boost: { label: 3, aliases: 2 },
  prefix: (term: string) => term.length >= 3,
  // One typo from 5 letters, two from 10: shorter words have too many neighbours, and each step costs time.
  fuzzy: (term: string) => (term.length >= 10 ? 2 : term.length >= 5 ? 1 : false),
  weights: { fuzzy: 0.3, prefix: 0.5 },
} as const;

/** For suggestions after an unknown iconRef: one typo even in a two-letter word ("S4" → S3). */
const SUGGESTION_OPTIONS = {
  ...SEARCH_OPTIONS,
  fuzzy: (term: string) => (term.length >= 10 ? 2 : term.length >= 2 ? 1 : false),
} as const;

interface PreparedQuery {
  /** Each query word (as corrected) with its transposition corrections and the words of its synonym phrases. */
  groups: Array<{ word: string; terms: Set<string> }>;
  /** Whole-query forms an exact name is compared with (synonyms substituted, vendor words dropped, spaceless). */
  variants: string[];
  /** Per library with kind words in the query: the same forms without those words, compared with that library only. */
  kindVariants: Map<string, string[]>;
  tree: Query;
  impliedVendor?: IconVendor;
}

/**
 * The known words `word` turns into by swapping two adjacent letters ("ngnix" → "nginx"); none when `word` is short,
 * is itself known, or is the start of a known term.
 */
function transpositionsOf(word: string, { vocabulary, sortedVocabulary }: SearchIndex): string[] {
  if (word.length < TRANSPOSITION_MIN_LENGTH || vocabulary.has(word)) return [];
  // A prefix of a known term is a word still being typed (prefix search finds it), not a typo.
  let low = 0;
  let high = sortedVocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sortedVocabulary[middle] as string) < word) low = middle + 1;
    else high = middle;
  }
  if (sortedVocabulary[low]?.startsWith(word)) return [];
  const found: string[] = [];
  for (let index = 0; index + 1 < word.length; index += 1) {
    if (word[index] === word[index + 1]) continue;
    const swapped = word.slice(0, index) + word[index + 1] + word[index] + word.slice(index + 2);
    if (vocabulary.has(swapped) && !found.includes(swapped)) found.push(swapped);
  }
  return found;
}

function prepareQuery(query: string, index: SearchIndex): PreparedQuery | undefined {
  const typed = normalizeWords(query.slice(0, SEARCH_QUERY_MAX_LENGTH)).slice(0, 8);
  if (typed.length === 0) return undefined;
  // Levenshtein typo search (MiniSearch's fuzzy) counts a swap of two letters as two typos; a transposed word is
  // corrected here instead, and the correction is searched as a typo of one letter would be.
  const corrections = typed.map((word) => transpositionsOf(word, index));
  // An unambiguous correction stands for the word typed (synonyms, exact names, vendor words).
  const words = typed.map((word, position) => (corrections[position]?.length === 1 ? (corrections[position]?.[0] as string) : word));
  const synonymWords = (word: string) => (QUERY_SYNONYMS[word] ?? []).flatMap((phrase) => phrase.split(' '));
  const groups = words.map((word, position) => {
    const spellings = [word, ...(corrections[position] ?? [])];
    return { word, terms: new Set([typed[position] as string, ...spellings, ...spellings.flatMap(synonymWords)]) };
  });
  const tree: Query = {
    combineWith: 'OR',
    queries: typed.map((word, position) => {
      const fixes = corrections[position] ?? [];
      const synonymsOf = fixes.length === 1 ? (fixes[0] as string) : word;
      return {
        combineWith: 'OR',
        queries: [
          word,
          ...fixes.map(
            (fix): Query => ({
              combineWith: 'OR',
              queries: [fix],
              fuzzy: false,
              prefix: false,
              // Weighed like MiniSearch weighs a fuzzy match at distance 1.
              boostTerm: () => (SEARCH_OPTIONS.weights.fuzzy * fix.length) / (fix.length + 1),
            }),
          ),
          // Synonyms are known spellings: matching them exactly keeps the typo search to the words typed.
          ...(QUERY_SYNONYMS[synonymsOf] ?? []).map(
            (phrase): Query => ({ combineWith: 'AND', queries: phrase.split(' '), fuzzy: false, prefix: false }),
          ),
        ],
      };
    }),
  };
  const formsOf = (base: string[]): Set<string> => {
    const forms = new Set<string>();
    const add = (list: string[]) => {
      if (list.length === 0) return;
      forms.add(list.join(' '));
      forms.add(list.join(''));
    };
    const withoutVendor = base.filter((word) => !(word in VENDOR_WORDS));
    for (const list of [base, withoutVendor]) {
      add(list);
      list.forEach((word, position) => {
        for (const phrase of QUERY_SYNONYMS[word] ?? []) add([...list.slice(0, position), phrase, ...list.slice(position + 1)]);
      });
    }
    return forms;
  };
  const variants = formsOf(words);
  const kindVariants = new Map<string, string[]>();
  for (const [library, kindWords] of Object.entries(LIBRARY_KIND_WORDS)) {
    const rest = words.filter((word) => !kindWords.includes(word));
    if (rest.length > 0 && rest.length < words.length) kindVariants.set(library, [...formsOf(rest)]);
  }
  const vendors = new Set(words.flatMap((word) => VENDOR_WORDS[word] ?? []));
  const impliedVendor = vendors.size === 1 ? [...vendors][0] : undefined;
  return {
    groups,
    variants: [...variants],
    kindVariants,
    tree,
    impliedVendor: isIconVendor(impliedVendor) ? impliedVendor : undefined,
  };
}

function hasAny(names: Set<string>, forms: readonly string[]): boolean {
  for (const form of forms) if (names.has(form)) return true;
  return false;
}

function score(entry: IndexedItem, result: SearchResult, prepared: PreparedQuery, vendor: IconVendor | undefined): number {
  // A vendor word counts as matched by every item of that vendor's library, a kind word by every item of its library.
  const kindWords = LIBRARY_KIND_WORDS[entry.item.library] ?? [];
  let matched = 0;
  let covered = 0;
  for (const { word, terms } of prepared.groups) {
    if (result.queryTerms.some((term) => terms.has(term))) matched += 1;
    else if (!entry.vendorWords.includes(word) && !kindWords.includes(word)) continue;
    covered += 1;
  }
  // MiniSearch multiplies a score by the number of query terms matched, so an item matching a word and its synonyms
  // ("mq", "message queue", "queue") would count three times over one matching the word alone: count words instead.
  const wordsMatched = Math.max(1, matched) / Math.max(1, result.queryTerms.length);
  let value = result.score * wordsMatched * (covered / prepared.groups.length) ** 2;
  const { label, alias } = entry.exact;
  const kindVariants = prepared.kindVariants.get(entry.item.library);
  if (hasAny(label, prepared.variants) || (kindVariants && hasAny(label, kindVariants))) value *= RANK.labelExact;
  else if (hasAny(alias, prepared.variants) || (kindVariants && hasAny(alias, kindVariants))) value *= RANK.aliasExact;
  if (entry.vendor) value *= entry.vendor === vendor ? RANK.vendorPreferred : RANK.otherVendor;
  if (entry.item.library === 'databases') value *= RANK.databases;
  if (entry.item.library === 'brands') value *= RANK.brands;
  return value;
}

function validateOptions(options: IconSearchOptions): { limit: number } {
  if (typeof options.query !== 'string') throw new AppError('validation_failed', 'query must be a string');
  if (options.vendor !== undefined && !isIconVendor(options.vendor)) {
    throw new AppError('validation_failed', `vendor must be one of ${ICON_VENDORS.join(', ')}, got ${JSON.stringify(options.vendor)}`);
  }
  const limit = options.limit ?? SEARCH_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    throw new AppError('validation_failed', `limit must be an integer between 1 and ${SEARCH_LIMIT_MAX}, got ${String(limit)}`);
  }
  return { limit };
}

/** Ranked search; `ref` is `<library>/<Item Label>`. An empty query finds nothing. */
export function searchIcons(options: IconSearchOptions): IconSearchResult[] {
  const { limit } = validateOptions(options);
  return rankedSearch(options.query, options.vendor, limit, SEARCH_OPTIONS);
}

/** Like searchIcons with more typo tolerance: the icons someone probably meant by a ref that does not exist. */
export function suggestIcons(query: string, vendor: IconVendor | undefined, limit: number): IconSearchResult[] {
  return rankedSearch(query, vendor, limit, SUGGESTION_OPTIONS);
}

function rankedSearch(
  query: string,
  requestedVendor: IconVendor | undefined,
  limit: number,
  searchOptions: typeof SEARCH_OPTIONS | typeof SUGGESTION_OPTIONS,
): IconSearchResult[] {
  const index = iconSearchIndex();
  const prepared = prepareQuery(query, index);
  if (!prepared) return [];
  const { miniSearch, entries } = index;
  const vendor = requestedVendor ?? prepared.impliedVendor;
  return miniSearch
    .search(prepared.tree, searchOptions)
    .flatMap((result) => {
      const entry = entries[result.id as number];
      return entry ? [{ entry, value: score(entry, result, prepared, vendor) }] : [];
    })
    .sort((a, b) => b.value - a.value || a.entry.item.label.length - b.entry.item.label.length)
    .slice(0, limit)
    .map(({ entry: { item } }) => ({ library: item.library, label: item.label, ref: item.ref }));
}
