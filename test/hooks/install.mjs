// Test hooks for agentboard processes started by the tests: `node --import <this file> bin/agentboard.js …`.
// An installed agentboard has no such file, and nothing in the environment moves its clock or makes it fail.
//   AGENTBOARD_TEST_NOW=<ISO time>       pins the board's clock and the process's clock
//   AGENTBOARD_TEST_SKEW_MS=<ms>         moves only this process's clock (a process whose clock is wrong)
//   AGENTBOARD_TEST_FAULT=<point>[@<n>]  kills the process (SIGKILL) the n-th time (default 1st) it reaches a commit point;
//                                        a trailing * matches every point that starts with what comes before it
//   AGENTBOARD_TEST_FAULT=errno:<CODE>:<path part>[@<n>]  fails the writes of a path containing <path part> with that errno,
//                                        from the n-th (default 1st) on
//   AGENTBOARD_TEST_FAULT=throw:<point>  throws an unexpected error at that commit point
//   AGENTBOARD_TEST_FAULT=stop:<point>   stops the process (SIGSTOP) the first time it reaches that commit point, holding the lock
//   AGENTBOARD_TEST_STALE_MS=<ms>        how old a lock whose holder cannot be checked must be to count as stale
//   AGENTBOARD_TEST_LINGER_MS=<ms>       how long an MCP server holding the lock waits for more queued calls after a commit
//   AGENTBOARD_TEST_GATHER_MS=<ms>       once a queued call has come, how long that server waits for the others it expects
//   AGENTBOARD_TEST_TENURE_MS=<ms>       the longest such a server goes on carrying out queued calls
//   AGENTBOARD_TEST_NETWORK_TIMEOUT_MS=<ms> how long a git that talks to a shared board's remote may take
//   AGENTBOARD_TEST_UNWATCHED_CALLS=1    `agentboard run` reads its agents' calls only when each turn ends, as where files cannot be watched
import { hooksFromEnv } from './from-env.mjs';

globalThis[Symbol.for('agentboard.test-hooks')] = hooksFromEnv(process.env);
