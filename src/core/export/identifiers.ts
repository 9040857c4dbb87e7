/**
 * Identifiers the writers print. Scene ids may hold anything (spaces, quotes, `-->`); printed ids keep only letters,
 * digits and `_`, so no id needs quoting in either language, and labels carry the text. They are unique ignoring
 * case (D2 keys are case-insensitive) and never one of the language's keywords.
 */

const MAX_LENGTH = 40;

/** Scene id → printed id, for every id given (nodes and groups share one namespace in both languages). */
export function printedIds(ids: readonly string[], reserved: ReadonlySet<string>): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const id of ids) {
    let base = id.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, MAX_LENGTH) || 'n';
    if (/^\d/.test(base) || reserved.has(base.toLowerCase())) base = `n_${base}`;
    let printed = base;
    for (let n = 2; used.has(printed.toLowerCase()); n++) printed = `${base}_${n}`;
    used.add(printed.toLowerCase());
    out.set(id, printed);
  }
  return out;
}
