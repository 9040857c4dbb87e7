/**
 * Compose's variable interpolation (compose-spec "Interpolation"), read as if no variable were set — the diagram is
 * drawn without the deployer's environment: `${VAR:-default}` and `${VAR-default}` are their default,
 * `${VAR:+alt}`/`${VAR+alt}` are empty, `$$` is a dollar, and a variable with no default (`${VAR}`, `$VAR`,
 * `${VAR:?message}`) is kept as `${VAR}`, so the reader sees what is left to the environment.
 */

/** The innermost `${…}`: its name, operator and argument (which holds no further `${`). */
const BRACED = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+?])((?:[^{}$]|\$(?!\{))*))?\}/g;
const BARE = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

export interface Interpolated {
  data: unknown;
  /** `${HTTP_PORT:-80}` → "80" for each default used. */
  defaults: Map<string, string>;
}

/** A variable with no default, kept as `${NAME}` (marked so the bare `$NAME` pass does not read it again). */
const kept = (name: string): string => `\u0001{${name}}`;

function interpolateText(text: string, defaults: Map<string, string>): string {
  if (!text.includes('$')) return text;
  // `$$` is an escaped dollar: kept out of the way while variables are read.
  let result = text.replace(/\$\$/g, '\u0000');
  for (let previous = ''; previous !== result; ) {
    previous = result;
    result = result.replace(BRACED, (whole, name: string, operator: string | undefined, argument: string | undefined) => {
      if (operator === '-' || operator === ':-') {
        defaults.set(whole, argument ?? '');
        return argument ?? '';
      }
      if (operator === '+' || operator === ':+') return '';
      return kept(name);
    });
  }
  result = result.replace(BARE, (_whole, name: string) => kept(name));
  return result.replace(/\u0001/g, '$').replace(/\u0000/g, '$');
}

/** Every string value of a Compose file interpolated (keys are not, as in Compose). */
export function interpolateCompose(data: unknown): Interpolated {
  const defaults = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return interpolateText(value, defaults);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return { data: walk(data), defaults };
}

/** The warning that says which variables are shown as their default, or undefined when none is. */
export function interpolationWarning({ defaults }: Interpolated): string | undefined {
  if (defaults.size === 0) return undefined;
  const named = [...defaults].slice(0, 5).map(([from, to]) => `${from} → "${to}"`).join(', ');
  return `variables are shown with their defaults, as with no environment set: ${named}${defaults.size > 5 ? ` and ${defaults.size - 5} more` : ''}`;
}
