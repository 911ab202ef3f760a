/**
 * The `agentboard` command line: commands are generated from the operation registry. Each
 * command takes its input as flags, positional arguments, --input FILE (the JSON object an MCP
 * tool takes) and, for documents, --from FILE.md. --json prints exactly one JSON document.
 */
import '../zod-setup.js';
import * as z from 'zod';
import { LIMITS } from '../domain/limits.js';
import { resolve } from 'node:path';
import { Command, CommanderError, Option, type OutputConfiguration } from 'commander';
import { AgentboardError, fail, forAgent, toPayload } from '../errors.js';
import { catalog, loadOperation, takes, type OpInfo } from '../ops/catalog.js';
import { createContext, inputRulesOf, PROFILES, type Context, type Operation, type Profile, type ToolProfile } from '../ops/registry.js';
import { runParsed } from '../ops/execute.js';
import { combinable, runCombined } from '../ops/combine.js';
import { parseInput, refuseDeepInput, withoutNulls } from '../ops/input.js';
import { refTo, resolveRefs, resolveRefsDeep } from '../domain/refs.js';
import { markdownToInput, withFrontmatterNotTaken, type InputLines, type Written } from '../ops/from-markdown.js';
import type { Field } from './fields.js';
import { renderAside, renderResult } from '../render/text.js';
import { colorLevel } from '../render/colors.js';
import { painter, PLAIN } from '../render/paint.js';
import { flagOf, spellFromFile, spellFromMarkdown, spellInputError } from './field-names.js';
import { configureHelp, PERSON_AS, takesGlobals } from './help.js';
import { cliSpeller, sameCommand } from './refs.js';
import { VERSION } from '../version.js';
import { defaultHuman, requirePerson } from './person.js';
import { isHuman } from '../domain/ids.js';
import { FILE_ACTIONS } from '../domain/model.js';
import { refuseOtherAgent, startedAgent } from '../domain/agent-markers.js';
import { appendJsonLine, callRecord, findRun, RUN_ID_PATTERN, startedInvocationCalls, type RunRecord } from '../store/runs.js';
import { readAtMost, readUserFile } from './user-file.js';
import { printable, shownSafely } from '../domain/text.js';

interface GlobalOptions {
  root?: string;
  json?: boolean;
  sync?: boolean;
  as?: string;
  debug?: boolean;
  input?: string;
  from?: string;
}

/** The commands whose operations only read (completion offers them archived changes too). */
const READ_COMMANDS = new WeakSet<Command>();

/** Commands that two operations share, told apart by their arguments. */
const SHARED_SUMMARIES: Record<string, string> = {
  show: 'Show a change (show <change_id>) or one of its documents (show <change_id> <document>)',
  approve: 'Approve a submitted document (approve <change_id> <document>) or a task in review (approve <change_id>/<task_id>); people only',
  reject: 'Reject a submitted document or a task in review, with --feedback; it returns to the pool; people only',
  release: 'Put a claimed task (release <change_id>/<task_id>) or a document taken up for revision (release <change_id> <document>) back in the pool; people only',
};

/** What a group of commands is about; its summary goes on to name its subcommands. */
const GROUP_SUMMARIES: Record<string, string> = {
  task: 'Tasks',
  agent: 'Agents',
  session: "An agent's workflow status",
  reviewer: 'Review keys for reviewer agents (people only)',
  conflicts: "Board files a git merge left unresolved, and what merging people's edits with agents' work kept on both sides",
  person: "People's keys for scripts and CI (people only)",
  remote: 'Sharing the board with every clone through a git remote',
};

const flagName = (op: OpInfo, field: Field) => flagOf(op, field.name);
const attrName = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function positionalNames(op: OpInfo): { name: string; optional: boolean }[] {
  return (op.cli.args ?? []).map((a) => ({ name: a.replace(/\?$/, ''), optional: a.endsWith('?') }));
}

/** The flags of an operation: every simple field of its input that is not positional or the actor. */
function flagFields(op: OpInfo): Field[] {
  const positional = new Set(positionalNames(op).map((p) => p.name));
  return op.fields.filter((f) => f.name !== 'agent_id' && !positional.has(f.name) && f.kind !== 'object');
}

const inputFiles = new Map<string, unknown>();

/** The next step of --input that is not a JSON object: the command it was given to, run again. */
const objectStep = (command: string) => `Give --input a JSON object, like {"change_id": "add-review-tool"}, then run \`${command}\` again.`;

/**
 * Where and why JSON.parse refused a text, in words: the line and column of the position its message
 * names (the message without the text it quotes, which may be the whole input).
 */
export function jsonProblem(message: string, text: string): string {
  if (text.trim() === '') return 'it is empty';
  if (/^Unexpected end of JSON input/.test(message)) return 'it ends before the JSON does';
  const at = /\bat position (\d+)/.exec(message);
  const why = message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '').replace(/^SyntaxError: /, '');
  if (!at) return printable(why).slice(0, 120);
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `line ${line}, column ${before.length - before.lastIndexOf('\n')}: ${printable(why).slice(0, 120)}`;
}

/**
 * The first key that an object of the valid JSON `text` gives twice, with its line and column; null
 * when none does. JSON.parse keeps the last one without a word; the board's YAML refuses the same.
 */
export function duplicateKey(text: string): { key: string; line: number; column: number } | null {
  const objects: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      objects.push(c === '{' ? new Set() : null);
      keyNext = c === '{';
    } else if (c === '}' || c === ']') objects.pop();
    else if (c === ',') keyNext = objects.at(-1) instanceof Set;
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (keyNext) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const keys = objects.at(-1)!;
        if (keys.has(key)) {
          const before = text.slice(0, i);
          return { key, line: before.split('\n').length, column: i - before.lastIndexOf('\n') };
        }
        keys.add(key);
        keyNext = false;
      }
      i = end;
    }
  }
  return null;
}

/** Reads --input once (standard input can only be read once), however many times it is asked for. */
function readInputFile(path: string, io: Io, command: string): unknown {
  if (!inputFiles.has(path)) inputFiles.set(path, readInputFileOnce(path, io, command));
  return structuredClone(inputFiles.get(path));
}

function readInputFileOnce(path: string, io: Io, command: string): unknown {
  const text = readUserFile(path, '--input', io, command);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return fail('USAGE', `The input ${path === '-' ? 'on standard input' : `in ${path}`} is not valid JSON (${jsonProblem((err as Error).message, text)}).`, objectStep(command));
  }
  const twice = duplicateKey(text);
  if (twice) {
    fail('USAGE', `The input ${path === '-' ? 'on standard input' : `in ${path}`} gives "${printable(twice.key).slice(0, 60)}" twice in one object (line ${twice.line}, column ${twice.column}): JSON keeps only the last, so which you meant is not clear.`, `Keep one "${printable(twice.key).slice(0, 60)}" in that object, then run \`${command}\` again; nothing was changed.`);
  }
  refuseDeepInput(value, `Give --input the fields \`${command} --help\` lists (none takes that much nesting), then run \`${command}\` again; nothing was changed.`);
  return value;
}

/**
 * The items of a list flag's values: each value a comma-separated list, or a JSON list of strings as
 * the help writes its examples (--skills '["sql"]'), so that its brackets and quotes never become
 * part of an item.
 */
function listItems(flag: string, values: string[]): string[] {
  return values
    .flatMap((v) => {
      if (!v.trim().startsWith('[')) return v.split(',');
      let items: unknown;
      try {
        items = JSON.parse(v);
      } catch {
        // refused below
      }
      if (!Array.isArray(items) || !items.every((i) => typeof i === 'string')) {
        fail('USAGE', `--${flag} ${printable(v)} is neither a JSON list of strings nor a comma-separated list.`, `Write it as --${flag} '["a", "b"]', as --${flag} a,b, or give --${flag} once for each item; nothing was changed.`);
      }
      return items as string[];
    })
    .map((v) => v.trim())
    .filter(Boolean);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Builds the input object from --input, --from, the positional arguments, the flags and the actor.
 * A field may come from more than one of them only with the same value: two different values are
 * refused (which one was meant cannot be told), whichever two they are.
 */
function assembleInput(op: OpInfo, positionals: (string | string[] | undefined)[], opts: Record<string, unknown>, globals: GlobalOptions, io: Io): { input: Record<string, unknown>; markdown?: string; lines: InputLines } {
  const input: Record<string, unknown> = {};
  let markdown: string | undefined;
  const lines: InputLines = {};
  const givenBy = new Map<string, string>();
  const give = (fields: Record<string, unknown>, by: string) => {
    for (const [name, value] of Object.entries(fields)) {
      const earlier = givenBy.get(name);
      if (earlier !== undefined && JSON.stringify(input[name]) !== JSON.stringify(value)) {
        fail('USAGE', `${name} is given twice, with different values: by ${earlier} and by ${by}.`, `Give ${name} once: leave it out of ${earlier} or leave out ${by}.`);
      }
      input[name] = value;
      givenBy.set(name, by);
    }
  };
  const command = `agentboard ${op.cli.command}`;
  // Standard input is read once: both reading it, the second would find it empty.
  if (globals.input === '-' && globals.from === '-') fail('USAGE', '--input - and --from - both read standard input, which is read only once.', `Give one of them a file (--input fields.json or --from document.md), then run \`${command}\` again; nothing was changed.`);
  if (globals.input !== undefined) {
    const raw = readInputFile(globals.input, io, command);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('USAGE', 'The --input JSON must be an object.', objectStep(command));
    // A field given as null is left out, as in a tool call: a flag may give it.
    give(withoutNulls(raw as Record<string, unknown>), `--input ${globals.input}`);
  }
  if (globals.from !== undefined) {
    if (!op.cli.from && !op.cli.fromText) fail('USAGE', `--from is not an option of \`agentboard ${op.cli.command}\`.`, 'Use --from with propose, spec, tasks, review or correct.');
    const text = readUserFile(globals.from, '--from', io, command);
    if (op.cli.from) markdown = text;
    give(op.cli.from ? markdownToInput(op.cli.from, text, globals.from, lines) : { [op.cli.fromText!]: text }, `--from ${globals.from}`);
  }
  positionalNames(op).forEach((p, i) => {
    const v = positionals[i];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) give({ [p.name]: Array.isArray(v) ? v.join(' ') : v }, `the argument <${p.name}>`);
  });
  for (const field of flagFields(op)) {
    const flag = flagName(op, field);
    const value = opts[attrName(flag)];
    if (value === undefined) continue;
    let given: unknown = value;
    if (field.kind === 'number') given = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    else if (field.kind === 'list') given = flag === field.name.replace(/_/g, '-') ? listItems(flag, value as string[]) : value;
    else if (field.kind === 'files') {
      given = (value as string[]).map((v) => {
        const m = new RegExp(`^(.*?)(?::(${FILE_ACTIONS.join('|')}))?$`).exec(v)!;
        const typo = m[2] === undefined ? /:([A-Za-z]+)$/.exec(v) : null;
        if (typo) fail('USAGE', `--${flag} ${printable(v)}: "${printable(typo[1]!)}" is not an action; the actions are ${FILE_ACTIONS.join(', ')}.`, `Write it as path:action, like --${flag} ${printable(v.slice(0, v.length - typo[0].length))}:modify.`);
        return { path: m[1], action: m[2] ?? 'modify' };
      });
    }
    give({ [field.name]: given }, `--${flag}`);
  }
  if (takes(op, 'agent_id') && !(op.cli.args ?? []).some((a) => a.startsWith('agent_id')) && globals.as !== undefined) give({ agent_id: globals.as }, '--as');
  // A field of its own spelled --as (`inputs --as codex`: the questions codex asked) takes the global option's value.
  const asField = op.fields.find((f) => f.name !== 'agent_id' && op.cli.flags?.[f.name] === 'as');
  if (asField && globals.as !== undefined) give({ [asField.name]: globals.as }, '--as');
  return markdown === undefined ? { input, lines } : { input, markdown, lines };
}

function addFlags(cmd: Command, ops: OpInfo[]): void {
  const seen = new Set<string>();
  // A field every operation of the command requires says so (it may come from --input or --from instead).
  const required = (name: string) => ops.every((o) => o.fields.some((f) => f.name === name && f.required));
  for (const op of ops) {
    for (const field of flagFields(op)) {
      const flag = flagName(op, field);
      if (seen.has(flag)) continue;
      seen.add(flag);
      const description = `${field.description.split('. ')[0]!.replace(/\.$/, '')}${required(field.name) ? ' (required)' : ''}`;
      let option: Option;
      if (field.kind === 'boolean') option = new Option(`--${flag}`, description);
      else if (field.kind === 'list' || field.kind === 'files') {
        option = new Option(`--${flag} <${field.kind === 'files' ? 'path[:action]' : 'value'}>`, `${description} (repeatable)`);
        // The values a list takes are shown and completed; each is checked with the rest of the input, the list collected.
        if (field.choices) option.choices(field.choices);
        option.argParser(collect);
      } else {
        option = new Option(`--${flag} <${field.kind === 'number' ? 'n' : 'value'}>`, description);
        if (field.choices) option.choices(field.choices);
      }
      cmd.addOption(option);
    }
  }
  // A person's command has no MCP tool: its object is the one the command itself would assemble.
  const object = ops.every((op) => op.access === 'human') ? 'its arguments and options above by name, with _ for -' : 'the same object the MCP tool takes';
  cmd.option('--input <file>', `the input as a JSON object (${object}); - reads standard input`);
  if (ops.some((op) => op.cli.from || op.cli.fromText)) cmd.option('--from <file.md>', 'the document as markdown');
}

/** Whether --as gives the operation its agent_id (a command that takes the agent as its argument, like `agent show`, has no use for it). */
const takesAs = (op: OpInfo) => takes(op, 'agent_id') && !positionalNames(op).some((p) => p.name === 'agent_id');

/**
 * What --as says in a command's help where it is not the actor of an agent's command: a person on
 * a person's command; on a read, the agent whose state it reads (as its field says).
 */
function asHelp(ops: OpInfo[]): string | undefined {
  if (ops.every((op) => op.access === 'human')) return PERSON_AS;
  if (!ops.every((op) => op.access === 'read')) return undefined;
  const field = ops.flatMap((op) => op.fields).find((f) => f.name === 'agent_id');
  return field ? `${field.description.charAt(0).toLowerCase()}${field.description.slice(1).replace(/\.$/, '')}` : undefined;
}

/**
 * The end of a command's help: what it needs at least, as a command line (one per operation of a
 * shared command), its required arguments and options with their placeholders. Empty for a command
 * that needs nothing.
 */
function needsHelp(ops: OpInfo[]): string {
  const placeholder = (f: Field) => (f.kind === 'files' ? '<path[:action]>' : f.kind === 'number' ? '<n>' : '<value>');
  const lines = ops.map((op) => {
    const required = op.fields.filter((f) => f.required && f.name !== 'agent_id');
    const flags = flagFields(op).filter((f) => f.required);
    const words = [
      ...positionalNames(op).filter((p) => !p.optional).map((p) => `<${p.name}>`),
      ...flags.map((f) => `--${flagName(op, f)}${f.kind === 'boolean' ? '' : ` ${placeholder(f)}`}`),
      // A list of objects has no flag: it comes in --input (or --from).
      ...(required.some((f) => f.kind === 'object') ? ['--input <file>'] : []),
    ];
    return words.length > 0 ? `  agentboard ${op.cli.command} ${words.join(' ')}\n` : '';
  });
  if (lines.every((l) => l === '')) return '';
  const from = ops.some((op) => op.cli.from || op.cli.fromText) ? ', or the document in --from <file.md>' : '';
  return `\nNeeds at least:\n${lines.join('')}  (or the same fields in --input <file>${from})\n`;
}

interface Run {
  /** The operation, when the command is not shared; a shared one is settled by input(). */
  op: OpInfo;
  root: string | undefined;
  sync: boolean;
  /** The file given with --from. */
  from: string | undefined;
  /** The operation and its input; the markdown of --from, for a command that reads it into fields. */
  input: () => { op: OpInfo; input: Record<string, unknown>; markdown?: string; lines: InputLines };
}

function commandFor(program: Command, path: string, parents: Map<string, Command>): Command {
  const words = path.split(' ');
  let parent = program;
  for (let i = 0; i < words.length - 1; i++) {
    const key = words.slice(0, i + 1).join(' ');
    let p = parents.get(key);
    if (!p) {
      p = parent.command(words[i]!);
      parents.set(key, p);
    }
    parent = p;
  }
  return parent.command(words[words.length - 1]!);
}

function build(operations: OpInfo[], io: Io, onRun: (run: Run) => void, extra: (program: Command) => void, output: OutputConfiguration): Command {
  const program = configureHelp(new Command('agentboard'))
    .configureOutput(output)
    .description('A git-native board where people and AI coding agents plan and ship changes together.')
    .version(VERSION, '-v, --version')
    .option('--root <dir>', 'the repository root holding agentd/ (default: the nearest folder above that has one)')
    .option('--json', 'print exactly one JSON document: {"ok":true,"data":…} or {"ok":false,"error":…}')
    .option('--as <actor>', 'act as this agent id, or as human:<name> (default: human:<git user.name or $USER>)')
    .option('--debug', 'show the cause of unexpected errors')
    .option('--sync', 'on a shared board, fetch the board from the remote before reading (writes always do)')
    .showSuggestionAfterError(true)
    .exitOverride();
  const groups = new Map<string, OpInfo[]>();
  for (const op of operations) groups.set(op.cli.command, [...(groups.get(op.cli.command) ?? []), op]);
  const parents = new Map<string, Command>();
  for (const [path, ops] of groups) {
    const cmd = commandFor(program, path, parents).description(SHARED_SUMMARIES[path] ?? ops.map((o) => o.summary).join('; '));
    const reads = ops.every((o) => o.access === 'read');
    if (reads) READ_COMMANDS.add(cmd);
    takesGlobals(cmd, ['--root', '--json', ...(ops.some(takesAs) ? (['--as'] as const) : []), '--debug', ...(reads ? (['--sync'] as const) : [])], { '--as': asHelp(ops) });
    // Ops sharing a command differ by how many positional arguments they take (show X / show X doc).
    const byArity = [...ops].sort((a, b) => positionalNames(a).length - positionalNames(b).length);
    const longest = positionalNames(byArity[byArity.length - 1]!);
    const shortestRequired = positionalNames(byArity[0]!).filter((p) => !p.optional).length;
    // Arguments are optional to commander: the same fields may come from --input or --from instead.
    longest.forEach((p, i) => {
      const names = [...new Set(byArity.map((o) => positionalNames(o)[i]?.name).filter(Boolean))].join('|');
      const variadic = i === longest.length - 1 && (p.name === 'text' || p.name === 'answer');
      cmd.argument(`[${names}${variadic ? '...' : ''}]`, i < shortestRequired ? 'required' : 'optional');
    });
    addFlags(cmd, ops);
    const needs = needsHelp(ops);
    if (needs) cmd.addHelpText('after', needs);
    cmd.action((...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const positionals = args.slice(0, longest.length) as (string | string[] | undefined)[];
      const given = positionals.filter((v) => v !== undefined && !(Array.isArray(v) && v.length === 0)).length;
      const globals = command.optsWithGlobals() as GlobalOptions;
      const fits = (o: OpInfo) => positionalNames(o).length >= given;
      const complete = (o: OpInfo, input: Record<string, unknown>) => positionalNames(o).every((p) => p.optional || input[p.name] !== undefined);
      // Of the operations sharing this command, the one that takes the most arguments that were all
      // given (as arguments or in --input) runs: `show X` shows a change, `show X spec` a document.
      const candidates = byArity.filter(fits).reverse();
      onRun({
        op: candidates[candidates.length - 1] ?? byArity[0]!,
        root: globals.root,
        sync: globals.sync === true,
        from: globals.from,
        input: () => {
          for (const op of candidates) {
            const assembled = assembleInput(op, positionals, command.opts(), globals, io);
            if (complete(op, assembled.input) || op === candidates[candidates.length - 1]) {
              const missing = positionalNames(op).find((p) => !p.optional && assembled.input[p.name] === undefined);
              if (missing) fail('USAGE', `Missing required argument '${missing.name}'.`, `Run \`agentboard ${op.cli.command} --help\` to see its arguments.`);
              return { op, ...assembled };
            }
          }
          return fail('USAGE', `Too many arguments for \`agentboard ${path}\`.`, `Run \`agentboard ${path} --help\` to see its arguments.`);
        },
      });
    });
  }
  for (const [key, group] of parents) group.description(`${GROUP_SUMMARIES[key] ?? key}: ${group.commands.map((c) => c.name()).join(', ')}`);
  extra(program);
  for (const cmd of commandsUnder(program)) {
    refuseTwice(cmd);
    refuseEmptyRoot(cmd);
  }
  return program;
}

/** An empty --root (a script's unset variable) would silently mean this folder: it is refused. */
function refuseEmptyRoot(cmd: Command): void {
  if (!cmd.options.some((o) => o.long === '--root')) return;
  cmd.on('option:root', (value: string) => {
    if (value.trim() === '') fail('USAGE', '--root is empty: it names no folder.', 'Give --root the repository root that holds agentd/, or leave it out to use the nearest board above this folder.');
  });
}

/** A command and every command under it. */
function commandsUnder(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(commandsUnder)];
}

/** How a command is typed: `agentboard task`. */
function commandLine(cmd: Command): string {
  return cmd.parent ? `${commandLine(cmd.parent)} ${cmd.name()}` : cmd.name();
}

/** Commander's error as one sentence: the command named as it is typed, its suggestion on the same line. */
function usageMessage(err: CommanderError, cmd: Command): string {
  const text = err.message
    .replace(/^error: /, '')
    .replace(/\s*\n\(Did you mean (.+)\?\)$/, ' (did you mean $1?)')
    .replace(`for '${cmd.name()}'`, `for \`${commandLine(cmd)}\``);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
}

/** The next step of bad usage: the help of the command that was being read. */
function helpStep(cmd: Command): string {
  const help = `Run \`${commandLine(cmd)} --help\``;
  if (!cmd.parent) return `${help} to see the commands and the options.`;
  return cmd.commands.length > 0 ? `${help} to see its subcommands.` : `${help} to see its arguments and options.`;
}

/**
 * An option that takes one value, given twice with different values, is refused as bad usage
 * (commander would keep the last, and which one was meant cannot be told); the same value twice
 * is one value. Repeatable options (--depends, --file, --worker) collect theirs.
 */
function refuseTwice(cmd: Command): void {
  for (const option of cmd.options) {
    if (option.isBoolean() || option.variadic || option.parseArg === collect) continue;
    let given: string | undefined;
    cmd.on(`option:${option.name()}`, (value: string) => {
      if (given !== undefined && given !== value) {
        fail('USAGE', `${option.long} is given twice, with different values: ${JSON.stringify(given.slice(0, 200))} and ${JSON.stringify(value.slice(0, 200))}.`, `Give ${option.long} once, with the value you mean.`);
      }
      given = value;
    });
  }
}

/** Where a command reads and writes: the process's own streams, or a test's. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Standard input, whole (a test gives it as a string). */
  stdin: () => Buffer | string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** A person at a terminal: standard input is one (output may go to a pipe or a file). */
  interactive: boolean;
  /** Which of the output streams are terminals (colour goes only to those); neither when left out. */
  tty?: { out: boolean; err: boolean };
}

function processIo(): Io {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    stdin: () => readAtMost(0, LIMITS.inputBytesMax + 1),
    env: process.env,
    cwd: process.cwd(),
    // Looked at when asked: opening standard input as a stream costs a quick command a few milliseconds.
    get interactive() {
      return process.stdin.isTTY === true;
    },
    tty: {
      get out() {
        return process.stdout.isTTY === true;
      },
      get err() {
        return process.stderr.isTTY === true;
      },
    },
  };
}

/** Bad usage (2): the command, its arguments, options or input are wrong. Anything else refused or failed (1). */
function exitCodeFor(code: string): number {
  return code === 'USAGE' || code === 'INVALID_INPUT' || code === 'INPUT_TOO_LARGE' ? 2 : 1;
}

/**
 * Who a command acts as. An agent names itself with --as <agent-id>. Acting as a person (a
 * person's command, or any command without --as) needs a person present (cli/person.ts); only
 * creating a board asks nothing, since it decides nothing for anyone.
 */
function actorFor(op: OpInfo, as: string | undefined, io: Io, ctx: Context): string {
  const started = startedAgent(io.env);
  if (started !== undefined && op.access !== 'human' && !(as !== undefined && isHuman(as))) {
    if (as !== undefined && as !== started) refuseOtherAgent(started, as);
    return started;
  }
  if (as !== undefined && !isHuman(as)) return as;
  if (op.name === 'board.init') return as ?? defaultHuman(io, ctx.root ?? io.cwd);
  return requirePerson(io, ctx.board().root, as, op.access === 'human' ? `\`agentboard ${op.cli.command}\`` : `Acting as a person (\`agentboard ${op.cli.command}\`)`, { terminal: op.name === 'person.key' });
}

/**
 * A command of an agent `agentboard run` started (AGENTBOARD_RUN_ID, AGENTBOARD_ROLE) changes the
 * board only as the MCP tools of its role do: a worker adds no task, a planner claims none and moves
 * none. Reads are anyone's; a person's command is refused in any agent's environment (cli/person.ts).
 */
function refuseOutsideRole(op: OpInfo, input: Record<string, unknown>, ctx: Context, operations: readonly OpInfo[]): void {
  const env = ctx.env;
  const agent = startedAgent(env);
  if (!env.AGENTBOARD_RUN_ID || agent === undefined || op.access === 'read' || op.access === 'human') return;
  const role = runRole(ctx, agent);
  if (role === undefined) return;
  const run = printable(env.AGENTBOARD_RUN_ID);
  const article = (r: string) => (/^[aeiou]/.test(r) ? 'an' : 'a');
  const a = article(role);
  const may = operations.filter((o) => o.access !== 'read' && o.profiles?.includes(role)).map((o) => `agentboard ${o.cli.command}`);
  if (!op.profiles?.includes(role)) {
    // Who runs it instead: the run's roles that have it (the `agent` profile is no role of a run), and people.
    const whose = [...(op.profiles ?? []).filter((p) => p !== 'agent').map((p) => `${article(p)} ${p}`), 'a person'].join(' or ');
    fail('ROLE_REFUSED', `${agent} is ${a} ${role} of agentboard run ${run} (AGENTBOARD_ROLE), and \`agentboard ${op.cli.command}\` is not ${a} ${role}'s command: nothing was changed.`, `${a === 'an' ? 'An' : 'A'} ${role} changes the board with ${may.join(', ')}; this command is for ${whose}; for anything else, ask a person with ${refTo('input.ask')}.`);
  }
  // Moving a task claims or finishes it: the work of a role that claims tasks (`next`), not a planner's or a reviewer's.
  const claims = operations.some((o) => o.name === 'task.next' && o.profiles?.includes(role));
  if (op.name === 'task.update' && input.status !== undefined && !claims) {
    fail('ROLE_REFUSED', `${agent} is ${a} ${role} of agentboard run ${run} (AGENTBOARD_ROLE), and ${a} ${role} moves no task (\`agentboard task update --status\`): it claims and finishes none. Nothing was changed.`, `Change a task's plan with \`agentboard task update <task_id>\` without --status; for anything else, ask a person with ${refTo('input.ask')}.`);
  }
}

/**
 * The role of an agent `agentboard run` started: as the run's record names it (AGENTBOARD_RUN_ID),
 * so that an AGENTBOARD_ROLE left empty or set to another profile gives it no more; as
 * AGENTBOARD_ROLE says for an agent the record does not name. Undefined when neither says.
 */
function runRole(ctx: Context, agent: string): ToolProfile | undefined {
  const said = ctx.env.AGENTBOARD_ROLE;
  const given = said !== undefined && TOOL_PROFILES.has(said) ? (said as ToolProfile) : undefined;
  let record: RunRecord | null = null;
  try {
    const id = ctx.env.AGENTBOARD_RUN_ID!;
    record = RUN_ID_PATTERN.test(id) ? findRun(ctx.board().runtimeDir, id) : null;
  } catch {
    // No board to read the run from: the environment says.
  }
  if (!record) return given;
  const roles: ToolProfile[] = [...(record.agents.planner === agent ? ['planner' as const] : []), ...(record.agents.reviewer === agent ? ['reviewer' as const] : []), ...(record.agents.workers.includes(agent) ? ['worker' as const] : [])];
  if (roles.length === 0) return given;
  return given && roles.includes(given) ? given : roles[0];
}

const TOOL_PROFILES: ReadonlySet<string> = new Set(PROFILES.filter((p) => p !== 'all'));

/** The --as of a command line, read before it is parsed (errors name calls with it). */
function actorIn(argv: string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--as' || a.startsWith('--as='));
  if (i < 0) return undefined;
  return argv[i] === '--as' ? argv[i + 1] : argv[i]!.slice('--as='.length);
}

/** The first word of a command line that is neither an option nor the value of one of the options that go before the command. */
function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--root' || a === '--as') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/**
 * Words after `agentboard runs` that are no subcommand of it (`runs bogus`), or after `runs list`,
 * which takes none: what `runs` takes, and how to list the runs.
 */
function refuseRunsWords(argv: string[], words: string[]): never {
  const next = 'List the runs with `agentboard runs`, then show one with `agentboard runs show` followed by its run id.';
  const word = printable(words[0]!);
  const typedList = argv.slice(argv.indexOf('runs') + 1).find((a) => !a.startsWith('-')) === 'list';
  if (typedList) fail('USAGE', `\`agentboard runs list\` takes no arguments, and '${word}' was given.`, next);
  return fail('USAGE', `\`agentboard runs\` has no subcommand '${word}': it takes list (the default: the runs, newest first) or show followed by a run id.`, next);
}

/** What the ES module loader (bin/agentboard.js) hands the CLI: its import(), which vm.Script code lacks. */
export interface Loader {
  importModule?: (specifier: string) => Promise<unknown>;
}

export async function main(argv: string[], given: Partial<Io> = {}, loader: Loader = {}): Promise<number> {
  // The process's streams, where the caller gives none of its own (assigned over, not spread: spreading would look at each stream).
  const io: Io = Object.defineProperties(processIo(), Object.getOwnPropertyDescriptors(given));
  inputFiles.clear();
  // What follows -- is arguments, never options: a note reading "--json" asks for no JSON.
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const word = commandWord(argv);
  // `agentboard mcp`'s stdout is the protocol's: its errors go to stderr, --json or not.
  const wantsJson = options.includes('--json') && word !== 'mcp';
  const debug = options.includes('--debug');
  /** Help commander wrote, held for one JSON document when --json is given. */
  let helpText = '';
  let run: Run | null = null;
  let special: (() => Promise<number>) | null = null;
  const operations = await catalog();
  // Only the command being run is built (building every command costs a quick command some
  // milliseconds); all of them for help, for a command not known, and for none.
  const only = word !== undefined && !options.some((a) => a === '--help' || a === '-h') ? operations.filter((op) => op.cli.command.split(' ')[0] === word) : [];
  const program = build(
    only.length > 0 ? only : operations,
    io,
    (r) => (run = r),
    (p) => {
      if (only.length > 0) return;
      takesGlobals(p.command('import'), ['--root', '--json', '--as', '--debug'], { '--as': PERSON_AS })
        .description("Bring a board of agentd, OpenSpec or spec-kit over: its changes land at the phase their documents reach (a person's command)")
        .argument('<tool>', 'agentd, openspec or spec-kit')
        .argument('[path]', "the repository to read (default: this one; agentd's own agentd/ is converted in place, its originals kept in agentd/.imported/)")
        .option('--dry-run', 'show the report and write nothing (no person needed)')
        .action((tool: string, path: string | undefined, opts: { dryRun?: boolean }, cmd: Command) => {
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          special = async () => (await import('./import-command.js')).runImport(io, tool, path, opts, globals, spell);
        });
      takesGlobals(p.command('demo'), ['--debug'])
        .description('Create a demo board in a temporary folder and let agentboard run drive one change through every phase, then show the run and the git log')
        .option('--keep', 'keep the demo folder (a git repository with its board and its tasks\' branches; archive removed their worktrees) instead of removing it at the end')
        .action((opts: { keep?: boolean }, cmd: Command) => {
          if ((cmd.optsWithGlobals() as GlobalOptions).json) fail('USAGE', '`agentboard demo` tells its run for people to read; it has no --json.', 'Run `agentboard demo` without --json; the runs of a board are JSON with `agentboard runs --json`.');
          special = async () => (await import('./demo.js')).runDemo(io, { keep: opts.keep === true });
        });
      takesGlobals(p.command('run'), ['--root', '--json', '--as', '--debug'], {
        '--json': 'print the run as JSON lines, one event a line, the last one run.finished (a refusal before the run starts is one {"ok":false,"error":…})',
        '--as': PERSON_AS,
      })
        .description('Drive a change through proposal → spec → tasks → work → review with the agents agentd/config.yaml names (a person\'s command)')
        .argument('<change_id>', 'the change to run (it is created from --goal when it does not exist)')
        .option('--goal <text>', 'what the change should achieve (needed until the proposal is written)')
        .option('--goal-file <file>', 'the goal, read from a file (- reads standard input)')
        .addOption(new Option('--until <phase>', 'stop after this phase (default: when the final review waits for a person)').choices(['proposal', 'spec', 'tasks', 'implementation', 'review']))
        .option('--planner <agent>', 'the agent that plans (default: run: planner: in config.yaml)')
        .option('--reviewer <agent>', 'the agent that reviews (default: run: reviewer:)')
        .option('--worker <agent>', 'an agent that works tasks (repeatable; default: run: workers:)', collect)
        .option('--workers <n>', 'how many workers at once, taken round-robin from the workers (default: one per worker)')
        .option('--max-attempts <n>', 'attempts per document, review round and task (default: 3)')
        .option('--timeout <minutes>', 'per agent invocation, decimals allowed; the agent\'s whole process tree is stopped (default: 30)')
        .option('--max-cost <usd>', 'start no new invocation once the known cost reaches this (only Claude Code reports cost)')
        .option('--wait', 'when a person must decide, watch the board until they do instead of stopping')
        .option('--merge', 'merge finished task branches into the current branch, in dependency order')
        .option('--no-worktrees', 'workers share the working tree (no worktree and branch per task)')
        .action((changeId: string, opts: Record<string, unknown>, cmd: Command) => {
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          special = async () => (await import('../engine/command.js')).runCommand(io, loader.importModule, changeId, opts, globals);
        });
      takesGlobals(p.command('board'), ['--root', '--as', '--debug'], { '--as': PERSON_AS })
        .description("The person's live console: tasks by state, agents, what waits on you; approve, reject, answer and release in place (on a terminal)")
        .argument('[change_id]', 'follow one change (default: the whole board)')
        .action((changeId: string | undefined, _opts: unknown, cmd: Command) => {
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          special = async () => (await import('../console/command.js')).boardCommand(io, loader.importModule, changeId, globals);
        });
      const runs = p.command('runs').description('The runs of agentboard run: every agent invocation, its usage and transcript');
      takesGlobals(runs.command('list', { isDefault: true }), ['--root', '--json', '--debug'])
        .description('Runs, newest first: change, phase reached, agents, invocations, tokens, cost, outcome')
        // A word after `runs` that is neither list nor show comes here, to the default: refused as what it is, not as "too many arguments".
        .allowExcessArguments()
        .action((_opts: unknown, cmd: Command) => {
          if (cmd.args.length > 0) refuseRunsWords(argv, cmd.args);
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          special = async () => (await import('../engine/command.js')).runsList(io, globals);
        });
      takesGlobals(runs.command('show'), ['--root', '--json', '--debug'])
        .description('Every agent invocation of a run: role, phase or task, attempt, exit, duration, usage, transcript')
        .argument('<run_id>')
        .action((runId: string, _opts: unknown, cmd: Command) => {
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          special = async () => (await import('../engine/command.js')).runsShow(io, runId, globals);
        });
      takesGlobals(p.command('completion'), ['--debug'])
        .description('Print the shell completion script: commands, flags, change and task ids (bash: source <(agentboard completion bash))')
        .argument('<shell>', 'bash, zsh or fish')
        .action((shell: string, _opts: unknown, cmd: Command) => {
          if ((cmd.optsWithGlobals() as GlobalOptions).json) fail('USAGE', '`agentboard completion` prints a shell script; it has no --json.', 'Run it without --json: `agentboard completion bash` (or zsh, or fish).');
          special = async () => (io.out((await import('./complete.js')).completionScript(shell)), 0);
        });
      p.command('__complete', { hidden: true })
        .description('What the completion scripts ask: the candidates for the last of the words after agentboard, one a line')
        .argument('[words...]')
        .allowUnknownOption()
        .action((words: string[]) => {
          special = async () => (io.out((await import('./complete.js')).candidates(p, words, io.cwd, (cmd) => READ_COMMANDS.has(cmd)).map((c) => `${c}\n`).join('')), 0);
        });
      p.command('scripted-agent', { hidden: true })
        .description('The demo\'s agent: a scripted program that works a change through its MCP server, started by agentboard run')
        .action(() => {
          special = async () => (await import('../engine/scripted-agent.js')).runScriptedAgent();
        });
      takesGlobals(p.command('mcp'), ['--root', '--as', '--debug', '--sync'], {
        '--as': 'serve this agent id only: its calls may leave out agent_id, and a call as another agent is refused (default: every call names its agent)',
        '--sync': 'on a shared board, every tool call that reads fetches the board from the remote first',
      })
        .description('Serve every agent operation as an MCP tool on stdio (for Claude Code, Codex, Cursor, Gemini CLI); --as binds it to one agent id')
        .addOption(new Option('--profile <profile>', 'which tools to serve').choices(PROFILES).default('all'))
        .addOption(new Option('--run <run_id>', 'record every call in this run\'s records (agentboard run starts its servers so)').hideHelp())
        .addOption(new Option('--invocation <n>', 'the invocation of that run').argParser((v) => Number.parseInt(v, 10)).hideHelp())
        .addOption(new Option('--task <task_id>', 'the task that run gave the agent: the only one it writes to').hideHelp())
        .addOption(new Option('--change <change_id>', 'the change that run gave its planner or reviewer').hideHelp())
        .addOption(new Option('--phase <phase>', 'the phase of that change it works in: its questions are that phase\'s').hideHelp())
        .action((opts: { profile: Profile; run?: string; invocation?: number; task?: string; change?: string; phase?: string }, cmd: Command) => {
          const globals = cmd.optsWithGlobals() as GlobalOptions;
          if (globals.json) fail('USAGE', '`agentboard mcp` speaks the MCP protocol (JSON-RPC) on stdio; it has no --json.', 'Start it without --json: `agentboard mcp --profile agent`.');
          const root = globals.root === undefined ? undefined : resolve(io.cwd, globals.root);
          special = async () => (await import('../mcp/server.js')).serveStdio(root, opts.profile, { as: globals.as, run: opts.run, invocation: opts.invocation, task: opts.task, change: opts.change, phase: opts.phase, sync: globals.sync === true });
        });
    },
    // With --json, help is one JSON document too ({"ok":true,"data":{"help":…}}), written once commander is done.
    { writeOut: (t: string) => (wantsJson ? void (helpText += t) : io.out(t)), writeErr: (t: string) => (wantsJson ? undefined : io.err(t)), outputError: () => undefined },
  );
  // The command last dispatched to: when commander asks for a subcommand, the group that needs one.
  let group: Command = program;
  for (const cmd of commandsUnder(program)) cmd.hook('preSubcommand', (_parent, sub) => void (group = sub));
  // The call being answered, once its input is known: a reference to it again is spelled as the command line given.
  let answering: { op: string; input: Record<string, unknown> } | undefined;
  const spell = cliSpeller(operations, actorIn(argv), { call: () => answering, command: sameCommand(argv) });
  // Colour never goes into --json, and goes to a stream only when it is a terminal (or FORCE_COLOR says so).
  const errPaint = wantsJson ? PLAIN : painter(colorLevel(io.env, io.tty?.err ?? false));
  // What the command did before it was refused (a sync that merged, a queued write replayed or refused) is told with the refusal: notices.
  const failWith = (payload: ReturnType<typeof toPayload>, exit: number, stack?: string, notices: string[] = []) => {
    const message = resolveRefs(payload.message, spell);
    const next = resolveRefs(payload.next_step, spell);
    const error = { ...payload, message, next_step: next };
    if (wantsJson) io.out(`${JSON.stringify(notices.length > 0 ? { ok: false, error, notices } : { ok: false, error })}\n`);
    else {
      io.err(`${errPaint.color('red', errPaint.bold('error:'))} ${message}\n  ${errPaint.dim('next:')} ${next}\n${debug && stack ? `${stack}\n` : ''}`);
      for (const n of notices) io.err(`${errPaint.color('yellow', 'note:')} ${n}\n`);
    }
    return exit;
  };
  try {
    if (argv.length === 0) {
      io.out(program.helpInformation());
      return 0;
    }
    // -V was the short flag of --version before -v; both stay. With --json, the version is one JSON document like any answer.
    if (argv.length === 1 && argv[0] === '-V') argv = ['--version'];
    if (wantsJson && argv.length === 2 && argv.some((a) => a === '--version' || a === '-v' || a === '-V')) {
      io.out(`${JSON.stringify({ ok: true, data: { version: VERSION } })}\n`);
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // A group without its subcommand (`agentboard task`): commander has shown its help (not into --json); it is bad usage all the same.
      if (err.code === 'commander.help' && err.exitCode !== 0) {
        // `agentboard help <name>` of a command that does not exist is an unknown command, not a group without its subcommand.
        const at = argv.indexOf('help');
        const topic = at < 0 ? undefined : argv[at + 1];
        if (topic !== undefined && !topic.startsWith('-') && !group.commands.some((c) => c.name() === topic)) {
          return failWith({ code: 'USAGE', message: `\`${commandLine(group)}\` has no command '${printable(topic)}'.`, next_step: helpStep(group) }, 2);
        }
        const subcommands = group.createHelp().visibleCommands(group).map((c) => c.name()).filter((name) => name !== 'help');
        return failWith({ code: 'USAGE', message: `\`${commandLine(group)}\` needs a subcommand: ${subcommands.join(', ')}.`, next_step: `Run \`${commandLine(group)} <subcommand>\`; \`${commandLine(group)} --help\` says what each does.` }, 2);
      }
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        if (wantsJson) io.out(`${JSON.stringify({ ok: true, data: err.code === 'commander.version' ? { version: VERSION } : { help: helpText } })}\n`);
        return 0;
      }
      return failWith({ code: 'USAGE', message: usageMessage(err, group), next_step: helpStep(group) }, 2);
    }
    return failWith(toPayload(err), err instanceof AgentboardError ? exitCodeFor(err.code) : 1, (err as Error).stack);
  }
  if (special) {
    try {
      return await (special as () => Promise<number>)();
    } catch (err) {
      return failWith(toPayload(err), err instanceof AgentboardError ? exitCodeFor(err.code) : 1, (err as Error).stack);
    }
  }
  const chosen = run as Run | null;
  if (!chosen) return 0;
  let running: OpInfo | null = null;
  let call: RunCall | null = null;
  // Where the fields of a --from document were read, for what the write says of them.
  let read: InputLines = {};
  try {
    const { op, input, markdown, lines } = chosen.input();
    read = lines;
    running = op;
    answering = { op: op.name, input };
    const ctx = createContext(chosen.root, io.cwd, io.env, { sync: chosen.sync });
    call = { ctx, op, input };
    const operation = await loadOperation(op);
    call.tool = operation.tool?.name;
    refuseOutsideRole(op, input, ctx, operations);
    // Bad usage exits 2 whoever runs it: a person's command checks its input before asking who runs it.
    if (op.access === 'human') parseInput(operation.input, takes(op, 'agent_id') ? { ...input, agent_id: input.agent_id ?? 'human:usage-check' } : input, { rules: operation.inputRules });
    if (takes(op, 'agent_id') && op.access !== 'read') {
      // --as as given is checked first (bad usage, exit 2), then who may act so (a person present).
      if (typeof input.agent_id === 'string') parseInput(z.object({ agent_id: operation.input.shape.agent_id as z.ZodType }), { agent_id: input.agent_id });
      input.agent_id = actorFor(op, input.agent_id as string | undefined, io, ctx);
    }
    const result = await runCommand(operation, ctx, input);
    // The frontmatter of a --from file, where the write did not take it, is told with the write's warnings.
    const written = markdown === undefined ? result : withFrontmatterNotTaken(result as Record<string, unknown> & Written, markdown, chosen.from!);
    const data = spellFromMarkdown(spellFromFile(op, resolveRefsDeep(written, spell), chosen.from), read, chosen.from);
    recordForRun(call, null);
    const notices = ctx.takeNotices().map((n) => resolveRefs(n.message, spell));
    if (wantsJson) io.out(`${JSON.stringify(notices.length > 0 ? { ok: true, data, notices } : { ok: true, data })}\n`);
    else {
      io.out(resolveRefs(renderResult(op.name, shownSafely(data), painter(colorLevel(io.env, io.tty?.out ?? false))), spell));
      const aside = renderAside(op.name, shownSafely(data));
      if (aside) io.err(resolveRefs(aside, spell));
      for (const n of notices) io.err(`${errPaint.color('yellow', 'note:')} ${n}\n`);
    }
    return operation.cli.exitCode?.(data) ?? 0;
  } catch (err) {
    const actor = call?.input.agent_id;
    const payload = typeof actor === 'string' && !isHuman(actor) ? forAgent(toPayload(err), refTo('input.ask')) : toPayload(err);
    // A command refused before its input was read (a --from file that is not the document, say) is recorded as the command it was.
    const refused = call ?? (await unreadCall(chosen, io));
    if (refused) recordForRun(refused, { code: payload.code, message: resolveRefs(payload.message, spell), next_step: resolveRefs(payload.next_step, spell) });
    // The input's fields are named as this command's flags and arguments, as the person typed them.
    const notices = call ? call.ctx.takeNotices().map((n) => resolveRefs(n.message, spell)) : [];
    return failWith(running ? spellFromMarkdown(spellFromFile(running, spellInputError(running, payload), chosen.from), read, chosen.from) : payload, err instanceof AgentboardError ? exitCodeFor(err.code) : 1, (err as Error).stack, notices);
  }
}

/** A command's call, as the run that started its agent records it. */
interface RunCall {
  ctx: Context;
  op: OpInfo;
  input: Record<string, unknown>;
  /** The operation's MCP tool, once it is loaded. */
  tool?: string;
}

/** The call of a command refused before its input was read, for the run that started its agent (null outside a run). */
async function unreadCall(chosen: Run, io: Io): Promise<RunCall | null> {
  if (!io.env.AGENTBOARD_RUN_ID) return null;
  try {
    const tool = (await loadOperation(chosen.op)).tool?.name;
    return { ctx: createContext(chosen.root, io.cwd, io.env), op: chosen.op, input: {}, ...(tool ? { tool } : {}) };
  } catch {
    return null; // no board to record on
  }
}

/**
 * A command of an agent `agentboard run` started goes into the run's records with the agent's MCP
 * calls (store/runs.ts startedInvocationCalls), so that the run sees what it did and what was
 * refused, whichever way the agent called. Any other command records nothing.
 */
function recordForRun(call: RunCall, error: { code: string; message: string; next_step: string } | null): void {
  if (!call.ctx.env.AGENTBOARD_RUN_ID) return;
  try {
    const calls = startedInvocationCalls(call.ctx.board().runtimeDir, call.ctx.env);
    if (calls) appendJsonLine(calls, { ...callRecord(call.tool ?? call.op.name, call.input, error), command: call.op.cli.command });
  } catch {
    // The records are the run's: a command whose board cannot be opened has nothing to record there.
  }
}

/**
 * Runs a command's operation. An agent's write is carried out as MCP servers carry out theirs
 * (ops/combine.ts): with the board lock free it is committed at once; while another process holds
 * it, the call is queued for that holder, which commits it with its own. The command does not go on
 * serving others' calls once it has its answer: it exits.
 */
async function runCommand(op: Operation, ctx: Context, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const input = parseInput(op.input, raw, { rules: inputRulesOf(op, ctx) }) as Record<string, unknown>;
  return combinable(op, input) ? runCombined(op, ctx, input, 'cli', { serve: false }) : runParsed(op, ctx, input);
}
