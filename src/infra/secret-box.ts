/**
 * Secrets at rest (the accounts' AI keys): AES-256-GCM under the server key. Each sealed value is bound to its owner
 * (the additional data), so a ciphertext copied onto another row does not open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SecretBox {
  seal(plaintext: string, owner: string): string;
  /** Throws when the value was sealed under another key or for another owner. */
  open(sealed: string, owner: string): string;
}

const VERSION = 'v1';

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(owner));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed, owner) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(owner));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The server key: derived from DRAWBRIDGE_SECRET when the operator sets one (every instance of a deployment must
 * share it), else read from `keyFile`, which is created once with mode 0600. `onCreated` is told when that happens.
 */
export function loadServerKey(secret: string | undefined, keyFile: string, onCreated: (path: string) => void): Buffer {
  if (secret) return createHash('sha256').update(`drawbridge-secret-box:${secret}`).digest();
  if (!existsSync(keyFile)) {
    mkdirSync(dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    chmodSync(keyFile, 0o600);
    onCreated(keyFile);
  }
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url');
  if (key.length !== 32) throw new Error(`${keyFile} does not hold a 32-byte key; remove it to have a new one made (saved AI keys are then lost)`);
  return key;
}
