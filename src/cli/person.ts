/**
 * The person at the command line. A person's command (approving, rejecting, releasing, answering,
 * archiving, making keys, running agents, importing…) needs a person to be present, and is never
 * taken from an agent:
 *
 * - inside an agent's environment (domain/agent-markers.ts) it is refused, even with a key;
 * - a person's key in AGENTBOARD_PERSON_KEY (for scripts and CI) acts as the person the board's
 *   agentd/people.yaml records for it;
 * - otherwise an interactive terminal is a person present, acting as --as human:<name> or as the
 *   git user.name of the board's repository (else $USER).
 *
 * `--as human:x` alone makes nobody a person. This keeps agents from acting as people by mistake or
 * on a prompt injection; it cannot stop a hostile program running as the same operating-system
 * user, which can do anything that user can (see the README's threat model).
 */
import { fail } from '../errors.js';
import { agentMarkerIn } from '../domain/agent-markers.js';
import { isHuman } from '../domain/ids.js';
import { PERSON_KEY_VARIABLE, personOfKey } from '../domain/people.js';
import { Board } from '../store/board.js';
import type { Io } from './main.js';
import { gitSync } from '../store/git-sync.js';

type PersonIo = Pick<Io, 'cwd' | 'env' | 'interactive'>;

/** human:<git user.name of the repository at `root`, else $USER>. */
export function defaultHuman(io: Pick<Io, 'env'>, root: string): string {
  let name = '';
  const git = gitSync(['config', 'user.name'], { cwd: root, env: io.env, timeoutMs: 2000 });
  if (git.code === 0) name = git.stdout.toString('utf8').trim(); // else no git, or no user.name
  name ||= io.env.USER ?? io.env.USERNAME ?? '';
  if (!name) fail('ACTOR_REQUIRED', 'No person: git has no user.name and $USER is not set.', 'Pass --as human:<your name>.');
  return `human:${name}`;
}

/** Whether git ignores `path` (relative to `root`): `git add` would then refuse it without -f. */
function ignoredByGit(io: Pick<Io, 'env'>, root: string, path: string): boolean {
  return gitSync(['check-ignore', '-q', '--', path], { cwd: root, env: io.env, timeoutMs: 2000 }).code === 0;
}

/**
 * The person a person's command acts for, after checking one is present (see above). `root` is
 * the board's repository; `terminal` asks for a person at a terminal even when a key is given.
 */
export function requirePerson(io: PersonIo, root: string, as: string | undefined, what: string, options: { terminal?: boolean } = {}): string {
  const marker = agentMarkerIn(io.env);
  if (marker) {
    fail(
      'AGENT_ENVIRONMENT',
      `${what} is a person's decision, and this command runs in an agent's environment (${marker}), where agentboard refuses it, even with a person's key.`,
      'Ask a person to run it in their own terminal. Agents report and ask through their own tools (agentboard_request_input).',
    );
  }
  const key = io.env[PERSON_KEY_VARIABLE];
  if (key && !options.terminal) {
    const { people, uncommitted } = new Board(root).committedPeople();
    const person = personOfKey(people, key);
    const pending = person ? undefined : personOfKey(uncommitted, key);
    if (pending) {
      fail(
        'PERSON_KEY_INVALID',
        `The person's key in ${PERSON_KEY_VARIABLE} is ${pending.name}'s in agentd/people.yaml, but the commit checked out does not have that entry: a person's key is taken only once the entry is committed.`,
        ignoredByGit(io, root, 'agentd/people.yaml')
          ? 'Review and commit agentd/people.yaml, which git ignores (.gitignore), so it is added by force: `git add -f agentd/people.yaml && git commit`; then run the command again.'
          : 'Review and commit agentd/people.yaml (`git add agentd/people.yaml && git commit`), then run the command again.',
      );
    }
    if (!person) {
      fail('PERSON_KEY_INVALID', `The person's key in ${PERSON_KEY_VARIABLE} is not one this board knows (agentd/people.yaml).`, 'Check the key, or make one at a terminal with `agentboard person key` and commit agentd/people.yaml.');
    }
    if (as !== undefined && as !== person.name) fail('PERSON_MISMATCH', `The person's key belongs to ${person.name}, not ${as}.`, `Leave out --as, or pass --as ${person.name}.`);
    return person.name;
  }
  if (io.interactive) {
    if (as === undefined) return defaultHuman(io, root);
    if (!isHuman(as)) fail('HUMAN_ONLY', `${what} is reserved to people; ${as} is an agent.`, 'Leave out --as to act as yourself, or pass --as human: and your name, like human:alice.');
    return as;
  }
  return fail(
    'PERSON_REQUIRED',
    `${what} is a person's decision, and no person is present: this is not an interactive terminal${options.terminal ? '' : `, and no person's key was given (${PERSON_KEY_VARIABLE})`}.`,
    options.terminal ? 'Run it yourself at a terminal.' : `Run it at a terminal, or give a person's key in ${PERSON_KEY_VARIABLE} (make one at a terminal with \`agentboard person key\`).`,
  );
}

/** The person a command run from this folder acts for (the board is found from the folder, or given). */
export function currentPerson(as: string | undefined, what: string, io: PersonIo, root?: string): string {
  return requirePerson(io, root ?? Board.open(undefined, io.cwd).root, as, what);
}
