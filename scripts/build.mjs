// Bundles the CLI into one CommonJS file, dist/cli.cjs, and makes V8's code cache for it
// (dist/cli.cjs.cache): bin/agentboard.js loads the bundle through that cache, so a command does
// not pay for parsing and compiling the bundle on every start. Parts only some commands need (the
// MCP server, the demo, the run engine with execa) are bundled lazily: their code runs only when
// those commands run, and the MCP SDK they use is not bundled at all.
//
// The live view of `run` is a second bundle, dist/tui.mjs, an ES module: ink and react are ES
// modules (ink's layout engine even awaits at the top level), and code run by vm.Script cannot
// import() an ES module. bin/agentboard.js hands the CLI its own import() to load it.
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const raw = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({ path: new URL(args.path.replace(/\?raw$/, ''), `file://${args.resolveDir}/`).pathname, namespace: 'raw' }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: process.env.AGENTBOARD_BUILD_DEBUG !== '1',
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

await rm('dist', { recursive: true, force: true });
const result = await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  mainFields: ['module', 'main'],
  plugins: [raw],
  // The MCP SDK is loaded from node_modules, and only by the commands that speak MCP (mcp, demo, run's agents).
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
});
const tui = await build({
  ...common,
  entryPoints: { tui: 'src/tui/index.tsx' },
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  jsx: 'automatic',
  // Loaded from node_modules, as the MCP SDK is by the CLI bundle.
  external: ['ink', 'react', 'react/*', 'chalk'],
});
for (const [file, info] of Object.entries({ ...result.metafile.outputs, ...tui.metafile.outputs })) console.log(`${file}  ${(info.bytes / 1024).toFixed(0)} KiB`);

const cache = spawnSync(process.execPath, ['scripts/code-cache.mjs'], { encoding: 'utf8' });
if (cache.status !== 0) throw new Error(`making the code cache failed:\n${cache.stderr}`);
console.log(cache.stdout.trim());
