/**
 * What a writer approximated, said once per kind of loss with the first few element ids: a 100-node scene with
 * hachure fills gets one line, not a hundred identical ones.
 */
const SHOWN = 5;

export class Losses {
  private readonly kinds = new Map<string, Set<string>>();

  /** `what` names the loss and what it became ("hachure fill drawn as D2's lines pattern"); `id` the element. */
  add(what: string, id: string): void {
    this.kinds.set(what, (this.kinds.get(what) ?? new Set()).add(id));
  }

  lines(): string[] {
    return [...this.kinds].map(([what, ids]) => {
      const shown = [...ids].slice(0, SHOWN).map((id) => `"${id}"`);
      const more = ids.size > SHOWN ? ` and ${ids.size - SHOWN} more` : '';
      return `${shown.join(', ')}${more}: ${what}`;
    });
  }
}
