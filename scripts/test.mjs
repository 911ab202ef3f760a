// `npm test`: type-checks while the tests run (after the build, which the tests use), and fails
// when either fails. tsc keeps one core busy for a quarter of a minute; the tests leave about that
// much of the machine idle while they wait on the processes they start, so the two together take
// about the tests' time alone. tsc's findings are printed once it is done.
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const run = (command, args, stdio) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });

const [typecheck, tests] = await Promise.all([
  run(bin('tsc'), ['--noEmit', '-p', '.'], ['ignore', 'pipe', 'pipe']),
  run(bin('vitest'), ['run', ...process.argv.slice(2)], 'inherit'),
]);
if (typecheck.code !== 0) process.stderr.write(`\nThe type check failed (npm run typecheck):\n${typecheck.out}`);
process.exit(typecheck.code || tests.code);
