/**
 * A subcommand's --help lists the global flags that apply to it (--root, --json, --as, --debug),
 * not all of them: `--as` only where someone acts, `--json` only where the output can be JSON.
 */
import { Help, type Command } from 'commander';

export type GlobalFlag = '--root' | '--json' | '--as' | '--debug';

const applies = new WeakMap<Command, ReadonlySet<string>>();

/** Records which global flags `cmd` takes, for its help. */
export function takesGlobals(cmd: Command, flags: GlobalFlag[]): Command {
  applies.set(cmd, new Set(flags));
  return cmd;
}

/** The global flags `cmd` takes (none for one that did not say). */
export function globalsOf(cmd: Command): string[] {
  return [...(applies.get(cmd) ?? [])];
}

/** Set on the program before its subcommands are made: they inherit it. */
export function configureHelp(program: Command): Command {
  return program.configureHelp({
    showGlobalOptions: true,
    visibleGlobalOptions(this: Help, cmd: Command) {
      const shown = applies.get(cmd);
      return shown ? Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => o.long !== undefined && shown.has(o.long)) : [];
    },
  });
}
