import { DATABASE_KIND_LABELS } from './libraries/databases.js';
import type { IconVendor } from './limits.js';
import { iconSearchIndex, normalizeWords } from './search.js';
import { QUERY_SYNONYMS } from './synonyms.js';
import type { IconItem } from './types.js';

/**
 * The best-guess icon for a node's label, or undefined unless the match is confident. Unlike search, a guess needs
 * an exact name (no typo or prefix): some run of the label's words (or one word's synonym) must be an item's
 * label or alias. Among those, database products and the hinted vendor's icons win; then the longest run
 * ("Cosmos DB" is more than a DB), the preferred kind of item, a label over an alias, and the rightmost run (the
 * head noun in English: "Orders DB" is a database).
 */

/** Labels longer than this are prose, not a node name: no guess. */
export const GUESS_MAX_WORDS = 6;
/** Longest run of words tried as one name ("time series database"). */
const MAX_PHRASE_WORDS = 4;

/**
 * Lower is preferred. Database products resolve to the Databases library even under a vendor hint, and with the
 * hinted vendor's set they beat any other match; the rest are ranked by run length first, then brand logos, generic
 * icons, and other vendors' icons, the last only for names that cannot be a plain word (so "Service" is no
 * Kubernetes icon without the kubernetes hint).
 */
const Tier = { DatabaseProduct: 0, HintedVendor: 1, Brand: 2, Generic: 3, OtherVendor: 4 } as const;
type Tier = (typeof Tier)[keyof typeof Tier];

interface Candidate {
  item: IconItem;
  tier: Tier;
  words: number;
  start: number;
  viaLabel: boolean;
}

/** A name that cannot be an ordinary word: several words, a digit, or inner capitals (S3, SQS, DynamoDB). */
function isDistinctive(item: IconItem, name: string): boolean {
  return [item.label, ...item.aliases].some((original) => {
    const words = normalizeWords(original);
    if (words.join(' ') !== name && words.join('') !== name) return false;
    return words.length > 1 || /\d/.test(original) || (original.match(/[A-Z]/g) ?? []).length >= 2;
  });
}

/** How people name a vendor in front of or after a product: "aws lambda", "api management azure", "k8s ingress". */
const VENDOR_WORDS: ReadonlyArray<[string[], IconVendor]> = [
  [['amazon', 'web', 'services'], 'aws'],
  [['aws'], 'aws'],
  [['amazon'], 'aws'],
  [['microsoft', 'azure'], 'azure'],
  [['azure'], 'azure'],
  [['google', 'cloud'], 'gcp'],
  [['gcp'], 'gcp'],
  [['kubernetes'], 'kubernetes'],
  [['k8s'], 'kubernetes'],
];

/**
 * A vendor named as the first or last words of a hint is a vendor hint, not part of the name: otherwise "aws
 * cloudfront" matches the AWS logo (a one-word exact name) rather than Amazon CloudFront. A bare vendor name stays.
 */
function namedVendor(words: string[]): { vendor: IconVendor; rest: string[] } | undefined {
  for (const [vendorWords, vendor] of VENDOR_WORDS) {
    if (words.length <= vendorWords.length) continue;
    if (vendorWords.every((w, i) => words[i] === w)) return { vendor, rest: words.slice(vendorWords.length) };
    if (vendorWords.every((w, i) => words[words.length - vendorWords.length + i] === w)) return { vendor, rest: words.slice(0, -vendorWords.length) };
  }
  return undefined;
}

/** A lone word also stands for its synonyms and its singular ("Functions" → function). */
function singleWordNames(word: string): string[] {
  const singular = word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? [word.slice(0, -1)] : [];
  return [...(QUERY_SYNONYMS[word] ?? []), ...singular];
}

function tierOf(item: IconItem, vendor: IconVendor | undefined, itemVendor: IconVendor | undefined): Tier {
  if (item.library === 'databases') return DATABASE_KIND_LABELS.has(item.label) ? Tier.Generic : Tier.DatabaseProduct;
  if (itemVendor) return itemVendor === vendor ? Tier.HintedVendor : Tier.OtherVendor;
  return item.library === 'brands' ? Tier.Brand : Tier.Generic;
}

const isFirstChoice = (tier: Tier): boolean => tier === Tier.DatabaseProduct || tier === Tier.HintedVendor;

function better(a: Candidate, b: Candidate | undefined): boolean {
  if (!b) return true;
  if (isFirstChoice(a.tier) !== isFirstChoice(b.tier)) return isFirstChoice(a.tier);
  if (a.words !== b.words) return a.words > b.words;
  if (a.tier !== b.tier) return a.tier < b.tier;
  if (a.viaLabel !== b.viaLabel) return a.viaLabel;
  return a.start > b.start;
}

export function guessIcon(text: string, vendor?: IconVendor): IconItem | undefined {
  const named = namedVendor(normalizeWords(text));
  const words = named?.rest ?? normalizeWords(text);
  vendor = named?.vendor ?? vendor;
  if (words.length === 0 || words.length > GUESS_MAX_WORDS) return undefined;
  const { byName } = iconSearchIndex();
  let best: Candidate | undefined;
  for (let length = Math.min(MAX_PHRASE_WORDS, words.length); length >= 1; length -= 1) {
    for (let start = 0; start + length <= words.length; start += 1) {
      const phrase = words.slice(start, start + length);
      const names = [phrase.join(' '), phrase.join(''), ...(length === 1 ? singleWordNames(phrase[0] ?? '') : [])];
      // Brands and other vendors' icons need the name to be at least half the label ("Docker Host", not "Go to page").
      const coversLabel = length * 2 >= words.length;
      for (const name of names) {
        for (const { entry, via } of byName.get(name) ?? []) {
          const tier = tierOf(entry.item, vendor, entry.vendor);
          if ((tier === Tier.Brand || tier === Tier.OtherVendor) && !coversLabel) continue;
          if (tier === Tier.OtherVendor && !isDistinctive(entry.item, name)) continue;
          const candidate = { item: entry.item, tier, words: length, start, viaLabel: via === 'label' };
          if (better(candidate, best)) best = candidate;
        }
      }
    }
  }
  return best?.item;
}
