/**
 * Reads the collections' inputs from bare clones at their pinned commits: `$CONFORMANCE_DIR/<owner>+<name>/repo`
 * (default `.conformance/` in the repository), made by `npm run conformance:fetch`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLLECTIONS, type Collection, type ConformanceInput } from './collections.js';

export const CONFORMANCE_DIR = process.env.CONFORMANCE_DIR ?? fileURLToPath(new URL('../../.conformance/', import.meta.url));

export const cloneOf = (repo: string): string => join(CONFORMANCE_DIR, repo.replace('/', '+'), 'repo');

/** Many blobs in one `git cat-file --batch`: thousands of `git show` processes would take longer than the run. */
function readBlobs(gitDir: string, commit: string, paths: readonly string[]): Map<string, string> {
  const out = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: paths.map((p) => `${commit}:${p}`).join('\n') + '\n', maxBuffer: 1 << 30 });
  const buffer = out.stdout;
  const texts = new Map<string, string>();
  let at = 0;
  for (const path of paths) {
    const headerEnd = buffer.indexOf(10, at);
    const header = buffer.subarray(at, headerEnd).toString();
    at = headerEnd + 1;
    if (header.endsWith('missing')) continue;
    const size = Number(header.split(' ')[2]);
    texts.set(path, buffer.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return texts;
}

/** A folder's files joined in name order (as `terraform plan` reads a module), named by the folder. */
function byUnit(collection: Collection, texts: Map<string, string>): Map<string, string> {
  if (collection.unit !== 'directory') return texts;
  const folders = new Map<string, string[]>();
  for (const path of [...texts.keys()].sort()) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : './';
    folders.set(folder, [...(folders.get(folder) ?? []), texts.get(path)!]);
  }
  return new Map([...folders].map(([folder, parts]) => [folder, parts.join('\n')]));
}

/** Every input of one collection, with the reason for each left out. */
export function collectionInputs(collection: Collection): { inputs: ConformanceInput[]; excluded: Array<{ source: string; reason: string }> } {
  const gitDir = cloneOf(collection.repo);
  if (!existsSync(gitDir)) throw new Error(`${collection.repo} is not fetched: no ${gitDir} (run npm run conformance:fetch, or set CONFORMANCE_DIR)`);
  const tree = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', collection.commit], { maxBuffer: 1 << 28 }).toString().split('\n');
  const texts = byUnit(collection, readBlobs(gitDir, collection.commit, tree.filter((path) => collection.paths.test(path))));
  const read = (path: string) => {
    const text = texts.get(path) ?? readBlobs(gitDir, collection.commit, [path]).get(path);
    if (text === undefined) throw new Error(`${path} is not in ${collection.repo}@${collection.commit}`);
    return text;
  };
  const inputs: ConformanceInput[] = [];
  const excluded: Array<{ source: string; reason: string }> = [];
  for (const [path, text] of texts) {
    for (const { source, code } of collection.extract?.(path, text, read) ?? [{ source: path, code: text }]) {
      const reason = collection.excluded?.(source, code);
      if (reason === undefined) inputs.push({ notation: collection.notation, repo: collection.repo, source, code });
      else excluded.push({ source, reason });
    }
  }
  return { inputs, excluded };
}

export { COLLECTIONS };
