/**
 * The one server-side fetch of a URL a user chose is the AI provider's base URL. Unless the operator allows it
 * (AI_ALLOW_PRIVATE_URLS, which a self-hosted Ollama needs), it must not reach loopback, link-local or private
 * networks: otherwise a key's base URL would let any user probe the service's own network.
 */
import { lookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { AppError } from '../../core/errors.js';

/**
 * The IPv4 addresses an IPv6 address carries and is routed to: IPv4-mapped and SIIT (`::ffff:a.b.c.d`,
 * `::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`, RFC 6052), 6to4 (`2002:AABB:CCDD::`), Teredo (server, and the
 * client inverted in the last 32 bits), and the deprecated IPv4-compatible `::a.b.c.d`.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4(p[6]!, p[7]!)];
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    case 'teredo':
      return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  }
  return p.slice(0, 6).every((part) => part === 0) ? [v4(p[6]!, p[7]!)] : [];
}

/** Only ordinary public unicast is allowed: loopback, private, link-local, shared, reserved and the rest are not. */
function isPrivate(address: string): boolean {
  if (!ipaddr.isValid(address)) return true; // nothing we can read is something we may call
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const carried = embeddedIpv4(ip as ipaddr.IPv6);
    if (carried.length) return carried.some((v4) => v4.range() !== 'unicast');
  }
  return ip.range() !== 'unicast';
}

const privateAddress = (host: string, address: string) =>
  new AppError(
    'validation_failed',
    `baseUrl: "${host}" is a private, loopback or link-local address (${address}); the operator can allow such providers with AI_ALLOW_PRIVATE_URLS=true`,
  );

/** Throws validation_failed when `url` is not http(s) or any address its host resolves to is private. */
export async function assertProviderUrl(url: string, allowPrivate: boolean): Promise<void> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password) {
    throw new AppError('validation_failed', `baseUrl must be an http(s) URL without credentials, got "${url}"`);
  }
  if (allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookupAll(host, { all: true })).map((a) => a.address);
  } catch {
    throw new AppError('validation_failed', `baseUrl: the host "${host}" does not resolve`);
  }
  const blocked = addresses.find(isPrivate);
  if (blocked) throw privateAddress(host, blocked);
}

/**
 * The resolver the provider's connections use: the name is resolved once, and the addresses checked are the ones
 * connected to, so a name that answered a public address to `assertProviderUrl` cannot answer a private one now.
 * (A literal address is never looked up; `assertProviderUrl` checks it before every call.)
 */
function checkedLookup(hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    const blocked = addresses.find((a) => isPrivate(a.address));
    if (blocked) return callback(privateAddress(hostname, blocked.address));
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

const agents = { checked: new Agent({ connect: { lookup: checkedLookup as never } }), open: new Agent() };

/**
 * The fetch the AI SDK's providers call. It follows no redirect: a 3xx from a provider is refused, as the place it
 * points to was never checked (and a POST with the key in it must not go there). Without AI_ALLOW_PRIVATE_URLS
 * every connection's address is checked as it is made.
 */
export function providerFetch(allowPrivate: boolean): typeof globalThis.fetch {
  const dispatcher = allowPrivate ? agents.open : agents.checked;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let response: Response;
    try {
      response = (await undiciFetch(input as never, { ...(init as object), redirect: 'manual', dispatcher } as never)) as unknown as Response;
    } catch (error) {
      // undici wraps the resolver's refusal in "fetch failed"; ours is the error the caller should see.
      const cause = (error as { cause?: unknown }).cause;
      throw cause instanceof AppError ? cause : error;
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new AppError(
        'ai_provider_error',
        `the provider answered with a redirect (${response.status}${response.headers.get('location') ? ` to ${response.headers.get('location')}` : ''}); redirects are not followed, so set baseUrl to the address that answers`,
      );
    }
    return response;
  }) as typeof globalThis.fetch;
}
