// Bundles the CLI into dist/: one file for the commands people run every day, and chunks that
// only the commands needing them load (the MCP server, the demo).
import { readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const raw = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({ path: new URL(args.path.replace(/\?raw$/, ''), `file://${args.resolveDir}/`).pathname, namespace: 'raw' }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

await rm('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [raw],
  minify: process.env.AGENTBOARD_BUILD_DEBUG !== "1",
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
for (const [file, info] of outputs) console.log(`${file}  ${(info.bytes / 1024).toFixed(0)} KiB`);
