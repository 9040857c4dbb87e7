// Bundles the canvas editor (a React island on /diagrams/:id/edit) into dist/editor/ with esbuild. Runs as npm's
// `prepare` step, so `npm ci && npm start` stays the whole set-up; nothing it writes is committed.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/editor`;

/**
 * Excalidraw adds a CDN (esm.sh) after EXCALIDRAW_ASSET_PATH in every font's source list; Chrome checks each listed
 * source against the CSP and reports the CDN one as a violation. Pointing that fallback at our own font route keeps
 * every font on our origin and the console clean.
 */
let replaced = false;
const fontFallbackOnOurOrigin = {
  name: 'font-fallback-on-our-origin',
  setup(build) {
    build.onLoad({ filter: /@excalidraw[\\/]excalidraw[\\/]dist[\\/]prod[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const cdn = /`https:\/\/esm\.sh\/\$\{.*?\}\/dist\/prod\/`/;
      if (!cdn.test(source)) return undefined;
      replaced = true;
      return { contents: source.replace(cdn, 'window.location.origin+"/assets/editor/"'), loader: 'js' };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { editor: 'src/adapters/web/editor/main.jsx' },
  outdir,
  bundle: true,
  // Excalidraw loads locales, image helpers and its font subsetter on demand: split them into chunks of our own.
  splitting: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  jsx: 'automatic',
  conditions: ['production'],
  define: { 'process.env.NODE_ENV': '"production"', 'process.env.IS_PREACT': '"false"' },
  loader: { '.woff2': 'file', '.ttf': 'file' },
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  plugins: [fontFallbackOnOurOrigin],
  logLevel: 'warning',
});
// A new Excalidraw that names its CDN differently must not slip a third-party font URL back in unnoticed.
if (!replaced) throw new Error("build-editor: Excalidraw's CDN font fallback was not found; update fontFallbackOnOurOrigin");
const bytes = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js')).reduce((sum, [, output]) => sum + output.bytes, 0);
console.log(`editor bundle: dist/editor/ ${(bytes / 1024).toFixed(0)} KiB of JavaScript in all chunks (before gzip)`);
