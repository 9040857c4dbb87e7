/**
 * The one server-side fetch of a URL a user chose is the AI provider's base URL. Unless the operator allows it
 * (AI_ALLOW_PRIVATE_URLS, which a self-hosted Ollama needs), it must not reach loopback, link-local or private
 * networks: otherwise a key's base URL would let any user probe the service's own network.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../core/errors.js';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

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
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new AppError('validation_failed', `baseUrl: the host "${host}" does not resolve`);
  }
  const blocked = addresses.find(isPrivate);
  if (blocked) {
    throw new AppError(
      'validation_failed',
      `baseUrl: "${host}" is a private, loopback or link-local address (${blocked}); the operator can allow such providers with AI_ALLOW_PRIVATE_URLS=true`,
    );
  }
}
