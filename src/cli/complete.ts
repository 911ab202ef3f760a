/**
 * Shell completion: `agentboard completion <shell>` prints the script for bash, zsh or fish, and the
 * script asks the hidden `agentboard __complete -- <words>` what may come next: commands, flags,
 * the values a flag or an argument takes (a list's too: init --mcp), and ids from the board
 * (changes, tasks, documents, questions, runs, agents). Task ids are offered change by change:
 * "add-search/" first, then its tasks, so a board of 10,000 tasks reads one task list.
 */
import type { Command, Option } from 'commander';
import { fail } from '../errors.js';
import { DOC_TYPES, TASK_STATUSES } from '../domain/model.js';
import { IMPORT_TOOLS } from '../import/model.js';
import { Board } from '../store/board.js';
import { listRuns } from '../store/runs.js';
import bash from '../../templates/completion/agentboard.bash?raw';
import fish from '../../templates/completion/agentboard.fish?raw';
import zsh from '../../templates/completion/agentboard.zsh?raw';
import { globalsOf } from './help.js';
import { printable } from '../domain/text.js';

export const SHELLS: Record<string, string> = { bash, zsh, fish };

/** The first line of the answer when the shell should complete file names itself. */
export const FILES = '__files__';

export function completionScript(shell: string): string {
  const script = SHELLS[shell];
  if (!script) fail('USAGE', `There is no completion for "${printable(shell)}".`, `Give one of: ${Object.keys(SHELLS).join(', ')} (agentboard completion bash).`);
  return script;
}

/** Flags whose value is a path: the shell completes those itself. */
const PATH_FLAGS = new Set(['--root', '--input', '--from', '--goal-file']);

function findOption(cmd: Command, flag: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const found = c.options.find((o) => o.long === flag || o.short === flag);
    if (found) return found;
  }
  return undefined;
}

/** The board's ids, read only when asked for, and nothing at all when there is no board here. */
class Ids {
  private opened: Board | null | undefined;

  constructor(
    private readonly root: string | undefined,
    private readonly cwd: string,
  ) {}

  private board(): Board | null {
    if (this.opened === undefined) {
      try {
        this.opened = Board.open(this.root, this.cwd);
      } catch {
        this.opened = null;
      }
    }
    return this.opened;
  }

  private read<T>(read: (board: Board) => T[]): T[] {
    const board = this.board();
    if (!board) return [];
    try {
      return read(board);
    } catch {
      return [];
    }
  }

  /** The board's changes; with `archived`, the archived ones too (a read may name them: read-only history). */
  changes = (archived = false) => [...this.read((b) => b.changeIds()), ...(archived ? this.read((b) => b.archived().map((a) => a.change_id)) : [])];

  /** Task ids: the change's tasks once the word names a change and a "/", else each change followed by "/". */
  tasks = (word: string) => {
    const slash = word.indexOf('/');
    if (slash < 0) return this.changes().map((id) => `${id}/`);
    const changeId = word.slice(0, slash);
    return this.read((b) => (b.changeIds().includes(changeId) ? (b.taskList(changeId)?.tasks ?? []).map((t) => `${changeId}/${t.id}`) : []));
  };

  agents = () =>
    this.read((b) => {
      const runtime = b.readRuntime();
      return [...new Set([...Object.keys(runtime.agents), ...Object.keys(runtime.sessions)])].sort();
    });

  inputs = () => this.read((b) => Object.values(b.readRuntime().inputs).flatMap((i) => (i.status === 'open' ? [i.id] : [])));

  runs = () => this.read((b) => listRuns(b.runtimeDir).map((r) => r.run_id));

  configured = () => this.read((b) => Object.keys(b.config.agents));
}

function optionValues(option: Option, ids: Ids, word: string, reads: boolean): string[] {
  if (option.argChoices) return option.argChoices;
  if (PATH_FLAGS.has(option.long ?? '')) return [FILES];
  switch (option.long) {
    case '--change':
      return ids.changes(reads);
    case '--as':
    case '--assignee':
    case '--actor':
      return ids.agents();
    case '--task':
      return ids.tasks(word);
    case '--status':
      // The task commands take status aliases too, so their flag lists no choices; the statuses are these.
      return [...TASK_STATUSES];
    case '--planner':
    case '--reviewer':
    case '--worker':
      return ids.configured();
    default:
      return [];
  }
}

/** Values of a positional argument, by its name ("change_id", or "change_id|task_id" where commands share a name). */
function argumentValues(name: string, ids: Ids, word: string, reads: boolean): string[] {
  return name.split('|').flatMap((part) => {
    switch (part) {
      case 'change_id':
        return ids.changes(reads);
      case 'task_id':
        return ids.tasks(word);
      case 'document':
        return [...DOC_TYPES];
      case 'input_id':
        return ids.inputs();
      case 'run_id':
        return ids.runs();
      case 'agent_id':
        return ids.agents();
      case 'shell':
        return Object.keys(SHELLS);
      case 'tool':
        return [...IMPORT_TOOLS];
      case 'path':
        return [FILES];
      default:
        return [];
    }
  });
}

/**
 * What may come as the last of `words` (the words after `agentboard`, the last one being typed).
 * `reads` tells the commands that only read: they are offered archived changes too.
 */
export function candidates(program: Command, words: string[], cwd: string, reads: (cmd: Command) => boolean = () => false): string[] {
  const word = words.at(-1) ?? '';
  let cmd = program;
  let position = 0;
  let pending: Option | null = null;
  let root: string | undefined;
  for (const w of words.slice(0, -1)) {
    if (pending) {
      if (pending.long === '--root') root = w;
      pending = null;
    } else if (w.startsWith('-')) {
      const [flag, value] = w.split(/=(.*)/s);
      const option = findOption(cmd, flag!);
      if (option?.long === '--root' && value !== undefined) root = value;
      if (option && (option.required || option.optional) && value === undefined) pending = option;
    } else {
      const sub = position === 0 ? cmd.commands.find((c) => c.name() === w || c.aliases().includes(w)) : undefined;
      if (sub) cmd = sub;
      else position++;
    }
  }
  const ids = new Ids(root, cwd);
  let out: string[];
  if (pending) out = optionValues(pending, ids, word, reads(cmd));
  else if (word.startsWith('-')) {
    out = [...cmd.options.filter((o) => !o.hidden && o.long).map((o) => o.long!), ...globalsOf(cmd), '--help'];
  } else {
    const subs = cmd.createHelp().visibleCommands(cmd).map((c) => c.name());
    if (subs.length > 0 && position === 0) out = subs;
    else {
      const args = cmd.registeredArguments;
      const arg = args[Math.min(position, args.length - 1)];
      out = arg && (position < args.length || arg.variadic) ? argumentValues(arg.name(), ids, word, reads(cmd)) : [];
    }
  }
  if (out[0] === FILES) return out;
  return [...new Set(out)].filter((c) => c.startsWith(word));
}
