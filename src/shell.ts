/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
