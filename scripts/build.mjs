// Bundles the CLI into one CommonJS file, dist/cli.cjs, and makes V8's code cache for it
// (dist/cli.cjs.cache): bin/agentboard.js loads the bundle through that cache, so a command does
// not pay for parsing and compiling the bundle on every start. Parts only some commands need (the
// MCP server, the demo, the run engine with execa) are bundled lazily: their code runs only when
// those commands run, and the MCP SDK they use is not in this bundle. `agentboard mcp` has a
// bundle of its own, dist/mcp.cjs with its cache: the same CLI with the SDK in it.
//
// What ink draws (the live view of `run`, the console of `board`) is a second bundle, dist/tui.mjs,
// an ES module with ink and React in it: ink is an ES module (its layout engine even awaits at the
// top level), and code run by vm.Script cannot import() an ES module. bin/agentboard.js hands the
// CLI its own import() to load it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { asciiRegexes } from './ascii.mjs';

const raw = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({ path: new URL(args.path.replace(/\?raw$/, ''), `file://${args.resolveDir}/`).pathname, namespace: 'raw' }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

// ink connects to React's devtools only when DEV=true, from a package agentboard does not install.
const noDevtools = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'no-devtools' }));
    b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({ contents: 'export default undefined;', loader: 'js' }));
  },
};

// commander needs child_process only to run a subcommand as its own executable, which agentboard
// never does: it is required when first used, not when the CLI loads (it brings net and dgram).
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`${args.path}: the require of child_process moved; update scripts/build.mjs`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
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

// The catalog of operations (src/ops/catalog.ts), read from the registry and embedded in the CLI,
// so that a command loads only the module of its own operation.
const maker = await build({
  ...common,
  minify: false,
  metafile: false,
  write: false,
  outdir: undefined,
  format: 'cjs',
  plugins: [raw],
  mainFields: ['module', 'main'],
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  stdin: { contents: "export { OPERATIONS } from './index.ts'; export { describeOperations } from './catalog.ts';", resolveDir: 'src/ops', loader: 'ts' },
});
const made = { exports: {} };
new Function('module', 'exports', 'require', maker.outputFiles[0].text)(made, made.exports, createRequire(import.meta.url));
const catalog = await made.exports.describeOperations(made.exports.OPERATIONS);

const cliBundle = {
  ...common,
  define: { AGENTBOARD_CATALOG: JSON.stringify(JSON.stringify(catalog)) },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Without a call that names each function as it is made (esbuild's keepNames): thousands at
  // load, and one per closure made at run time. Stack traces of this bundle name minified
  // functions either way.
  keepNames: false,
  // The bundle is the function bin/load.cjs compiles, wrapped as node wraps a CommonJS module: its
  // text is the source V8 compiles as it is, with no copy of it joined to a wrapper on every start.
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '\n})' },
  mainFields: ['module', 'main'],
  plugins: [raw, lazyChildProcess],
};
const result = await build({
  ...cliBundle,
  define: { ...cliBundle.define, AGENTBOARD_ZOD_JIT: 'false' },
  entryPoints: { cli: 'src/cli/main.ts' },
  // The MCP SDK is loaded from node_modules, and only by the commands that speak MCP (demo, run's agents).
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
});
// `agentboard mcp` loads the same CLI with the MCP SDK bundled in, so that the code cache holds what
// serving tools runs (the SDK's and agentboard's), compiled once at build time instead of in every
// server's first calls.
const mcp = await build({ ...cliBundle, define: { ...cliBundle.define, AGENTBOARD_ZOD_JIT: 'true' }, entryPoints: { mcp: 'src/cli/main.ts' } });
const tui = await build({
  ...common,
  entryPoints: { tui: 'src/tui/index.tsx' },
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  jsx: 'automatic',
  // ink and react are bundled in, React as its production build: loading them from node_modules
  // costs a console hundreds of milliseconds at start (resolving their files, scanning React's
  // CommonJS), and the development build several times the CPU of every redraw.
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [noDevtools],
  // Some of their CommonJS dependencies require() node's modules: an ES module has no require of its own.
  banner: { js: "import { createRequire as __agentboardRequire } from 'node:module'; const require = __agentboardRequire(import.meta.url);" },
});
for (const [file, info] of Object.entries({ ...result.metafile.outputs, ...mcp.metafile.outputs, ...tui.metafile.outputs })) console.log(`${file}  ${(info.bytes / 1024).toFixed(0)} KiB`);

for (const file of ['dist/cli.cjs', 'dist/mcp.cjs']) {
  const left = asciiRegexes(file);
  if (left > 0) console.log(`${file}: ${left} characters outside ASCII left (outside regular expressions): V8 reads it as two bytes per character`);
}

const cache = spawnSync(process.execPath, ['scripts/code-cache.mjs'], { encoding: 'utf8' });
if (cache.status !== 0) throw new Error(`making the code cache failed:\n${cache.stderr}`);
console.log(cache.stdout.trim());
