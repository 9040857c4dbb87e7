/**
 * Brings the conformance collections here: a bare clone of each repository in collections.ts into
 * `$CONFORMANCE_DIR/<owner>+<name>/repo` (default .conformance/), with the pinned commit present.
 * `npm run conformance:fetch`; needs git and access to github.com.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { COLLECTIONS, cloneOf } from './sources.js';

for (const repo of new Set(COLLECTIONS.map((c) => c.repo))) {
  const gitDir = cloneOf(repo);
  if (!existsSync(gitDir)) {
    mkdirSync(dirname(gitDir), { recursive: true });
    // Blobs come on demand: the run reads a few thousand files of repositories far larger.
    execFileSync('git', ['clone', '--bare', '--filter=blob:none', `https://github.com/${repo}.git`, gitDir], { stdio: 'inherit' });
  }
  for (const { commit } of COLLECTIONS.filter((c) => c.repo === repo)) {
    const present = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]).status === 0;
    if (!present) execFileSync('git', ['--git-dir', gitDir, 'fetch', '--filter=blob:none', 'origin', commit], { stdio: 'inherit' });
  }
  console.log(`${repo}: ready`);
}
