// bin/load.cjs for ES modules (the build's code cache, the tests).
import { createRequire } from 'node:module';

export const { compile, loadCli } = createRequire(import.meta.url)('./load.cjs');
