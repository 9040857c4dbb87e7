/**
 * Compose `extends`: a service takes another's settings and adds its own (compose-spec "Extends"). Only a service of
 * the same file is resolved; one in another file (`extends: {file: …}`) is not given to us.
 */
import { isRecord as isMapping } from '../yaml.js';

type Mapping = Record<string, unknown>;

/** The base a service names in this file: `extends: {service: app}` (or the old `extends: app`), without `file`. */
function baseName(service: Mapping): string | undefined {
  const spec = service.extends;
  if (typeof spec === 'string') return spec;
  return isMapping(spec) && spec.file === undefined && typeof spec.service === 'string' ? spec.service : undefined;
}

/** The spec's merge: mappings (environment, networks, depends_on maps) merge key by key, sequences (ports, volumes,
 * depends_on lists) are joined, and any other value of the extending service replaces the base's. */
function merge(base: Mapping, own: Mapping): Mapping {
  const merged: Mapping = { ...base };
  for (const [key, value] of Object.entries(own)) {
    const inherited = base[key];
    if (Array.isArray(inherited) && Array.isArray(value)) merged[key] = [...new Set([...inherited, ...value])];
    else if (isMapping(inherited) && isMapping(value)) merged[key] = { ...inherited, ...value };
    else merged[key] = value;
  }
  return merged;
}

/** Services with what they extend in this file folded in, bases first through any chain; a cycle is left as written. */
export function resolveExtends(services: Mapping): Mapping {
  const resolved = new Map<string, Mapping>();
  const resolve = (name: string, seen: Set<string>): Mapping => {
    const own = services[name] as Mapping;
    const done = resolved.get(name);
    if (done !== undefined) return done;
    const base = baseName(own);
    const result = base !== undefined && base !== name && !seen.has(base) && isMapping(services[base]) ? merge(resolve(base, new Set([...seen, name])), own) : own;
    resolved.set(name, result);
    return result;
  };
  return Object.fromEntries(Object.entries(services).map(([name, service]) => [name, isMapping(service) ? resolve(name, new Set()) : service]));
}
