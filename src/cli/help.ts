/**
 * A subcommand's --help lists the global flags that apply to it (--root, --json, --as, --debug,
 * --sync), not all of them: `--as` only where someone acts, `--json` only where the output can be
 * JSON, `--sync` only where the board is read and nothing written. A
 * command where one means something else than everywhere (`run --json` prints events, `mcp --as`
 * binds a server) says so in its own words.
 */
import { Help, Option, type Command } from 'commander';

export type GlobalFlag = '--root' | '--json' | '--as' | '--debug' | '--sync';

/** What --as is on a person's command: a person, never an agent. */
export const PERSON_AS = 'act as this person, human:<name>; an agent id is refused (default: human:<git user.name or $USER>)';

const applies = new WeakMap<Command, { flags: ReadonlySet<string>; described: Partial<Record<GlobalFlag, string>> }>();

/** Records which global flags `cmd` takes, for its help, and what those that mean something else for it say there. */
export function takesGlobals(cmd: Command, flags: GlobalFlag[], described: Partial<Record<GlobalFlag, string>> = {}): Command {
  applies.set(cmd, { flags: new Set(flags), described });
  return cmd;
}

/** The global flags `cmd` takes (none for one that did not say). */
export function globalsOf(cmd: Command): string[] {
  return [...(applies.get(cmd)?.flags ?? [])];
}

/** Set on the program before its subcommands are made: they inherit it. */
export function configureHelp(program: Command): Command {
  return program.configureHelp({
    showGlobalOptions: true,
    visibleGlobalOptions(this: Help, cmd: Command) {
      const shown = applies.get(cmd);
      if (!shown) return [];
      return Help.prototype.visibleGlobalOptions
        .call(this, cmd)
        .filter((o) => o.long !== undefined && shown.flags.has(o.long))
        .map((o) => {
          const own = shown.described[o.long as GlobalFlag];
          return own === undefined ? o : new Option(o.flags, own);
        });
    },
  });
}
