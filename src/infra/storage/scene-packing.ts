import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * How a kept version is stored: its name and elements JSON, Brotli-compressed. A scene's JSON repeats the same keys
 * and styles on every element, so a whole copy shrinks several times over (`npm run bench` prints the figure), and
 * a whole copy reads back on its own, so pruning old versions never breaks a chain of deltas.
 * Quality 5, measured on the bench's 200-element scene: 105 kB to 3.8 kB in about 2 ms; 4 packs 15% larger, 6 takes
 * twice as long for no gain, deflate is larger and slower. It runs on the write path, so it must stay cheap: past
 * LARGE_SCENE (about 500 elements) quality 2 halves the time (1,000 elements, 527 kB: 4.2 ms to 2 ms) for a pack
 * 17% larger (16.5 kB to 19.3 kB).
 */
const QUALITY = 5;
const LARGE_SCENE_QUALITY = 2;
const LARGE_SCENE = 256 * 1024;

/**
 * The first line is the name as a JSON string, or, for a diagram drawn from code, `{"name","source"}` with the source's
 * JSON text, so restoring a version gives back the code it was drawn from too.
 */
export function packScene(name: string, elementsJson: string, sourceJson: string | null = null): Buffer {
  const head = sourceJson === null ? JSON.stringify(name) : JSON.stringify({ name, source: sourceJson });
  const text = `${head}\n${elementsJson}`;
  const quality = text.length > LARGE_SCENE ? LARGE_SCENE_QUALITY : QUALITY;
  return brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
}

/** `sourceJson` is undefined for a version packed without one (not drawn from code, or kept before sources were). */
export function unpackScene(content: Uint8Array): { name: string; elementsJson: string; sourceJson?: string } {
  const text = brotliDecompressSync(content).toString('utf8');
  const newline = text.indexOf('\n');
  const head = JSON.parse(text.slice(0, newline)) as string | { name: string; source: string };
  const elementsJson = text.slice(newline + 1);
  return typeof head === 'string' ? { name: head, elementsJson } : { name: head.name, elementsJson, sourceJson: head.source };
}
