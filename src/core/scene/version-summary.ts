/** What one write did to a document, in one line for its version history: elements added, changed, removed, renamed. */
export function summariseChange(
  before: { name: string; elements: readonly { id: string }[] } | null,
  after: { name: string; elements: readonly { id: string }[] },
): string {
  if (!before) return `created with ${count(after.elements.length, 'element')}`;
  const old = new Map(before.elements.map((e) => [e.id, e]));
  let added = 0;
  let changed = 0;
  for (const element of after.elements) {
    const previous = old.get(element.id);
    if (previous === undefined) added++;
    // The same object is the same element (a write keeps what it did not touch): no need to serialise it.
    else if (previous !== element && JSON.stringify(previous) !== JSON.stringify(element)) changed++;
    old.delete(element.id);
  }
  const parts = [
    added ? `${added} added` : '',
    changed ? `${changed} changed` : '',
    old.size ? `${old.size} removed` : '',
    before.name !== after.name ? `renamed ${JSON.stringify(before.name)} → ${JSON.stringify(after.name)}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no change';
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
