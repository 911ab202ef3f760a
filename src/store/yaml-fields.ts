/**
 * Rewriting the fields of YAML a person wrote (a task's block, a document's frontmatter) without
 * rewriting the rest: only the lines of the top-level keys whose value changed are written anew,
 * so a person's order of keys, quoting, list style, comments and spacing stay.
 */
import { sameValue } from './merge.js';
import { emitYaml, type Value } from './yaml-lite.js';

/** A top-level key of a YAML block as a person may spell it: plain, 'single' or "double" quoted. */
const YAML_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:[{][^:#]*?))[ \t]*:(?:[ \t]|$)/;

/** The part of the YAML one top-level key holds (its line and the lines under it), or comments and blank lines (`key` undefined). */
interface MetaPart {
  key?: string;
  lines: string[];
}

/** YAML cut into its keys' parts; null when a line does not read as one this can follow (a complex key, a key twice). */
function metaParts(yaml: string[]): MetaPart[] | null {
  const parts: MetaPart[] = [];
  const seen = new Set<string>();
  for (const line of yaml) {
    const top = line !== '' && !/^[ \t#]|^-(?:[ \t]|$)/.test(line);
    if (!top) {
      const last = parts[parts.length - 1];
      if (last) last.lines.push(line);
      else parts.push({ lines: [line] });
      continue;
    }
    const m = YAML_KEY.exec(line);
    if (!m) return null;
    const key = m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2] !== undefined ? m[2].replace(/''/g, "'") : m[3]!.trim();
    if (seen.has(key)) return null;
    seen.add(key);
    parts.push({ key, lines: [line] });
  }
  // Comments and blank lines after a key's lines stand before the next key: they are not the key's.
  return parts.flatMap((p) => {
    if (p.key === undefined) return [p];
    let end = p.lines.length;
    while (end > 1 && (p.lines[end - 1]!.trim() === '' || p.lines[end - 1]!.startsWith('#'))) end--;
    return end === p.lines.length ? [p] : [{ key: p.key, lines: p.lines.slice(0, end) }, { lines: p.lines.slice(end) }];
  });
}

/** The lines of a field written anew with `value`; the comment at the end of its line, when it is one line still, stays where it was. */
function metaLines(part: MetaPart, value: Value, inline: string | undefined): string[] {
  const lines = fieldLines(part.key!, value);
  const line = part.lines[0]!;
  if (inline === undefined || part.lines.length > 1 || lines.length > 1 || !line.endsWith(inline)) return lines;
  return [`${lines[0]}${/[ \t]*$/.exec(line.slice(0, -inline.length))![0] || ' '}${inline}`];
}

/**
 * `yaml` (the lines of a block of top-level keys, as a person wrote them) with the values of `now`
 * in place of those of `old`: a key whose value changed is written anew (the comment at the end of
 * its line kept, `inline`), a key `now` adds goes after the last key of the block that comes before
 * it in `now`'s order (else first), a key `now` drops goes; every other line stays. Null when a line
 * does not read as one this can follow. The caller checks that the result reads back as `now`.
 */
export function rewriteYamlFields(yaml: string[], old: Record<string, Value | undefined>, now: Record<string, Value | undefined>, inline?: Record<string, string>): string[] | null {
  const parts = metaParts(yaml);
  if (!parts) return null;
  const order = Object.keys(now);
  const kept: MetaPart[] = [];
  for (const part of parts) {
    if (part.key === undefined || sameValue(old[part.key], now[part.key])) kept.push(part);
    else if (now[part.key] !== undefined) kept.push({ key: part.key, lines: metaLines(part, now[part.key]!, inline?.[part.key]) });
  }
  for (const key of order) {
    if (now[key] === undefined || kept.some((p) => p.key === key)) continue;
    const rank = order.indexOf(key);
    const at = kept.findLastIndex((p) => p.key !== undefined && order.includes(p.key) && order.indexOf(p.key) < rank);
    const first = kept.findIndex((p) => p.key !== undefined);
    kept.splice(at >= 0 ? at + 1 : first >= 0 ? first : kept.length, 0, { key, lines: fieldLines(key, now[key]!) });
  }
  return kept.flatMap((p) => p.lines);
}

/** A key and its value as agentboard writes them, line by line. */
function fieldLines(key: string, value: Value): string[] {
  return emitYaml({ [key]: value }).replace(/\n$/, '').split('\n');
}
