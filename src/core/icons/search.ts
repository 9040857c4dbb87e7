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

/**
 * Ranked icon search over every library. MiniSearch (an inverted index with a radix tree) does the term matching
 * with prefix and typo tolerance; the ranking on top adds what a diagram author expects: a query that names an item
 * exactly wins, queries whose every word matches beat partial matches, and the requested vendor's set comes first.
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
  miniSearch.addAll(
    entries.map((entry, id) => ({
      id,
      label: entry.item.label,
      aliases: [...entry.item.aliases, ...entry.exact.label, ...entry.exact.alias].join(' | '),
    })),
  );
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
  searchIndex = { miniSearch, entries, byName };
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
  /** Each query word with the words of its synonym phrases. */
  groups: Array<{ word: string; terms: Set<string> }>;
  /** Whole-query forms an exact name is compared with (synonyms substituted, vendor words dropped, spaceless). */
  variants: string[];
  tree: Query;
  impliedVendor?: IconVendor;
}

function prepareQuery(query: string): PreparedQuery | undefined {
  const words = normalizeWords(query.slice(0, SEARCH_QUERY_MAX_LENGTH)).slice(0, 8);
  if (words.length === 0) return undefined;
  const groups = words.map((word) => ({
    word,
    terms: new Set([word, ...(QUERY_SYNONYMS[word] ?? []).flatMap((phrase) => phrase.split(' '))]),
  }));
  const tree: Query = {
    combineWith: 'OR',
    queries: words.map((word) => ({
      combineWith: 'OR',
      queries: [
        word,
        // Synonyms are known spellings: matching them exactly keeps the typo search to the words typed.
        ...(QUERY_SYNONYMS[word] ?? []).map(
          (phrase): Query => ({ combineWith: 'AND', queries: phrase.split(' '), fuzzy: false, prefix: false }),
        ),
      ],
    })),
  };
  const variants = new Set<string>();
  const addVariant = (list: string[]) => {
    if (list.length === 0) return;
    variants.add(list.join(' '));
    variants.add(list.join(''));
  };
  const withoutVendor = words.filter((word) => !(word in VENDOR_WORDS));
  for (const base of [words, withoutVendor]) {
    addVariant(base);
    base.forEach((word, index) => {
      for (const phrase of QUERY_SYNONYMS[word] ?? []) addVariant([...base.slice(0, index), phrase, ...base.slice(index + 1)]);
    });
  }
  const vendors = new Set(words.flatMap((word) => VENDOR_WORDS[word] ?? []));
  const impliedVendor = vendors.size === 1 ? [...vendors][0] : undefined;
  return { groups, variants: [...variants], tree, impliedVendor: isIconVendor(impliedVendor) ? impliedVendor : undefined };
}

function score(entry: IndexedItem, result: SearchResult, prepared: PreparedQuery, vendor: IconVendor | undefined): number {
  // A vendor word counts as matched by every item of that vendor's library.
  const covered = prepared.groups.filter(
    ({ word, terms }) => result.queryTerms.some((term) => terms.has(term)) || entry.vendorWords.includes(word),
  ).length;
  let value = result.score * (covered / prepared.groups.length) ** 2;
  const { label, alias } = entry.exact;
  if (prepared.variants.some((variant) => label.has(variant))) value *= RANK.labelExact;
  else if (prepared.variants.some((variant) => alias.has(variant))) value *= RANK.aliasExact;
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
  const prepared = prepareQuery(query);
  if (!prepared) return [];
  const { miniSearch, entries } = iconSearchIndex();
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
