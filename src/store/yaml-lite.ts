/**
 * YAML for agentboard's own files: a deterministic emitter and a fast reader for exactly what the
 * emitter writes. Anything the fast reader does not recognise (a hand edit with comments at the
 * end of a line, block scalars, anchors…) goes to the full `yaml` parser, which stays the judge of
 * meaning; the fast path exists because parsing 10,000 task blocks with the full parser takes a
 * second, and must agree with it on everything it accepts (see test/unit/yaml-lite.test.ts).
 */
import type * as Yaml from 'yaml';
import type { Document } from 'yaml';
import type { YamlComments } from '../domain/model.js';
import { withLf } from './markdown.js';

let yamlLib: typeof Yaml | undefined;
/**
 * The `yaml` package, loaded when first needed: the fast reader takes what agentboard writes, so a
 * command on a board nobody formatted by hand never evaluates the package (a few ms of every start).
 */
export function yaml(): typeof Yaml {
  return (yamlLib ??= require('yaml') as typeof Yaml);
}

export type Scalar = string | number | boolean | null;
export type FlatMap = { [key: string]: Scalar };
export type Value = Scalar | Scalar[] | FlatMap[] | FlatMap;
export type YamlMap = { [key: string]: Value };

export class YamlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const RESERVED = /^(?:null|true|false|yes|no|on|off|y|n|~)$/i;
const NUMBERISH = /^(?:[-+]?(?:\.\d+|\d+(?:\.\d*)?)(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const SAFE_PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_./+-]*$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;
const INT = /^-?(?:0|[1-9]\d{0,14})$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function plainString(s: string, inFlow: boolean): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  // Only text that starts like a number can read as one; only short words are reserved.
  if ((c <= 57 || c === 43 || c === 45 || c === 46) && NUMBERISH.test(s)) return false;
  if (s.length <= 5 && RESERVED.test(s)) return false;
  return SAFE_PLAIN.test(s) || (!inFlow && TIMESTAMP.test(s));
}

/**
 * A scalar as the emitter writes a string (plain, or quoted as JSON), read back; undefined for
 * anything else, even when YAML would read it (a number, a word YAML reads as a boolean, other quoting).
 */
export function readScalarString(raw: string): string | undefined {
  if (raw.charCodeAt(0) !== 34) return plainString(raw, false) ? raw : undefined;
  try {
    const s: unknown = JSON.parse(raw);
    return typeof s === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

function emitScalar(value: Scalar, inFlow = false): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    // Besides agentboard's own whole numbers, a number a person put in a field agentboard keeps as it is (`estimate: 1.5`).
    if (!Number.isFinite(value)) throw new Error(`only finite numbers are written to YAML, got ${value}`);
    return String(value);
  }
  return plainString(value, inFlow) ? value : JSON.stringify(value);
}

function isFlatMapArray(value: unknown[]): value is FlatMap[] {
  return value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
}

function isScalarValue(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** A map of scalars by plain keys, with one at least: what emitYaml writes as "  key: value" lines. */
function isFlatMap(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const entries = Object.entries(v).filter(([, x]) => x !== undefined);
  return entries.length > 0 && entries.every(([k, x]) => KEY.test(k) && isScalarValue(x));
}

/** Whether emitYaml's own lines hold the entry: agentboard's keys and values always fit; a person's may not. */
function fitsLines(key: string, value: unknown): boolean {
  if (!KEY.test(key)) return false;
  if (Array.isArray(value)) return value.every(isScalarValue) || value.every(isFlatMap);
  return isScalarValue(value) || isFlatMap(value);
}

/**
 * Writes a map in key order, one key per line; undefined values are left out. A key or value a
 * person added that these lines do not hold (a key with a space, a nested map, YAML's `<<` key) is
 * written by the full YAML library, which parseYaml reads back the same.
 */
export function emitYaml(map: Record<string, Value | undefined>): string {
  let out = '';
  for (const [key, value] of Object.entries(map)) {
    if (value === undefined) continue;
    if (!fitsLines(key, value)) {
      out += yaml().stringify({ [key]: value }, { lineWidth: 0, aliasDuplicateObjects: false });
      continue;
    }
    if (Array.isArray(value)) {
      if (isFlatMapArray(value)) {
        out += `${key}:\n`;
        for (const item of value) {
          let first = true;
          for (const [k, v] of Object.entries(item)) {
            if (v === undefined) continue;
            out += `${first ? '  - ' : '    '}${k}: ${emitScalar(v)}\n`;
            first = false;
          }
          if (first) throw new Error(`empty map in list ${key}`);
        }
      } else {
        out += `${key}: [${(value as Scalar[]).map((v) => emitScalar(v, true)).join(', ')}]\n`;
      }
    } else if (value !== null && typeof value === 'object') {
      out += `${key}:\n`;
      for (const [k, v] of Object.entries(value)) {
        if (v !== undefined) out += `  ${k}: ${emitScalar(v)}\n`;
      }
    } else {
      out += `${key}: ${emitScalar(value)}\n`;
    }
  }
  return out;
}

const BAIL = Symbol('bail');
type Bail = typeof BAIL;

function readPlain(s: string, inFlow: boolean): Scalar | Bail {
  if (s === 'null' || s === '~') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (INT.test(s)) return Number(s);
  return plainString(s, inFlow) ? s : BAIL;
}

function readScalar(raw: string): Scalar | Bail {
  const s = raw.trimEnd();
  if (s.startsWith('"')) {
    if (s.length < 2 || !s.endsWith('"')) return BAIL;
    try {
      const v: unknown = JSON.parse(s);
      return typeof v === 'string' ? v : BAIL;
    } catch {
      return BAIL;
    }
  }
  return readPlain(s, false);
}

function readFlowList(raw: string): Scalar[] | Bail {
  const s = raw.trimEnd();
  if (!s.startsWith('[') || !s.endsWith(']')) return BAIL;
  const body = s.slice(1, -1);
  const items: Scalar[] = [];
  let i = 0;
  const skipSpaces = () => {
    while (body[i] === ' ') i++;
  };
  skipSpaces();
  if (i === body.length) return items;
  while (i <= body.length) {
    skipSpaces();
    let item: Scalar | Bail;
    if (body[i] === '"') {
      let j = i + 1;
      while (j < body.length && body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
      if (j >= body.length) return BAIL;
      try {
        item = JSON.parse(body.slice(i, j + 1)) as string;
      } catch {
        return BAIL;
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < body.length && body[j] !== ',') j++;
      item = readPlain(body.slice(i, j).trimEnd(), true);
      i = j;
    }
    if (item === BAIL) return BAIL;
    items.push(item);
    skipSpaces();
    if (i === body.length) return items;
    if (body[i] !== ',') return BAIL;
    i++;
  }
  return BAIL;
}

function isKey(line: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = line.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
    if (!(letter || (i > 0 && ((c >= 48 && c <= 57) || c === 45)))) return false;
  }
  return true;
}

function splitKey(line: string): [string, string] | Bail {
  const colon = line.indexOf(':');
  if (colon <= 0 || !isKey(line, colon)) return BAIL;
  const key = line.slice(0, colon);
  const rest = line.slice(colon + 1);
  if (rest.length > 0 && rest[0] !== ' ') return BAIL;
  return [key, rest.trim()];
}

function isSkippable(line: string): boolean {
  const t = line.trimStart();
  return t === '' || t.startsWith('#');
}

/** A flow list like [a, "b c"] as emitYaml writes it; null when it is not one. */
export function parseFlowList(raw: string): Scalar[] | null {
  const out = readFlowList(raw);
  return out === BAIL ? null : out;
}

/** The fast reader; null for anything outside what emitYaml writes (plus full-line comments). */
export function fastParse(text: string): YamlMap | null {
  const out = fastParseOrBail(text);
  return out === BAIL ? null : out;
}

function fastParseOrBail(text: string): YamlMap | Bail {
  const lines = text.split('\n');
  const out: YamlMap = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isSkippable(line)) {
      i++;
      continue;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) return BAIL;
    const kv = splitKey(line);
    if (kv === BAIL) return BAIL;
    const [key, rest] = kv;
    if (Object.prototype.hasOwnProperty.call(out, key)) return BAIL;
    i++;
    if (rest !== '') {
      const value = rest.startsWith('[') ? readFlowList(rest) : readScalar(rest);
      if (value === BAIL) return BAIL;
      out[key] = value;
      continue;
    }
    // A block: a list of scalars or flat maps ("  - "), or a flat map ("  k: v").
    const list: (Scalar | FlatMap)[] = [];
    let map: FlatMap | null = null;
    let current: FlatMap | null = null;
    while (i < lines.length && (lines[i]!.startsWith('  ') || isSkippable(lines[i]!))) {
      const l = lines[i]!;
      i++;
      if (isSkippable(l)) continue;
      if (l.startsWith('  - ')) {
        if (map) return BAIL;
        const item = l.slice(4);
        const inner = splitKey(item);
        if (inner !== BAIL && !item.startsWith('"')) {
          const v = readScalar(inner[1]);
          if (v === BAIL || inner[1] === '') return BAIL;
          current = { [inner[0]]: v };
          list.push(current);
        } else {
          const v = readScalar(item);
          if (v === BAIL) return BAIL;
          current = null;
          list.push(v);
        }
      } else if (l.startsWith('    ') && current) {
        const inner = splitKey(l.slice(4));
        if (inner === BAIL || inner[1] === '' || Object.prototype.hasOwnProperty.call(current, inner[0])) return BAIL;
        const v = readScalar(inner[1]);
        if (v === BAIL) return BAIL;
        current[inner[0]] = v;
      } else if (!l.startsWith('   ') && list.length === 0) {
        const inner = splitKey(l.slice(2));
        if (inner === BAIL || inner[1] === '') return BAIL;
        map ??= {};
        if (Object.prototype.hasOwnProperty.call(map, inner[0])) return BAIL;
        const v = readScalar(inner[1]);
        if (v === BAIL) return BAIL;
        map[inner[0]] = v;
      } else {
        return BAIL;
      }
    }
    if (map) out[key] = map;
    else if (list.length === 0) out[key] = null;
    else if (list.every((v) => typeof v === 'object' && v !== null)) out[key] = list as FlatMap[];
    else if (list.every((v) => typeof v !== 'object' || v === null)) out[key] = list as Scalar[];
    else return BAIL;
  }
  return out;
}

const MAX_ALIASES = 20;

/** Parses a YAML map; throws YamlError with a 1-based line number relative to `text`. */
export function parseYaml(text: string): YamlMap {
  text = withLf(text);
  return fastParse(text) ?? slowParse(text);
}

/** The full parser, exported for tests that prove the fast path agrees with it. */
export function slowParse(text: string): YamlMap {
  let doc: Document;
  try {
    doc = yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (err) {
    throw new YamlError(`unreadable YAML (${(err as Error).message})`, 1);
  }
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    const line = lineOf(text, first.pos[0]);
    // The parser's own words name a function of its API: said as what the file holds.
    if (first.code === 'MULTIPLE_DOCS') throw new YamlError(`a second YAML document starts ${text.startsWith('---', first.pos[0]) ? 'at this --- line' : 'here, after a ... line'}, and the file must hold one document only`, line);
    if (first.code === 'DUPLICATE_KEY') throw new YamlError(`the key "${/^[^:\n]*/.exec(text.slice(first.pos[0]))![0].trim()}" is given a second time here; keep one of its lines`, line);
    if (first.code === 'TAB_AS_INDENT') throw new YamlError('a tab indents this line, and YAML indents with spaces only', line);
    throw new YamlError(first.message.split('\n')[0]!, line);
  }
  keepNumbersAsWritten(doc);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    throw new YamlError(`YAML refused: ${(err as Error).message.split('\n')[0]}`, 1);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new YamlError('expected "key: value" lines', 1);
  return value as YamlMap;
}

/**
 * A plain scalar YAML reads as a number that is not written as that number is (`001`, `1.10`,
 * `1e3`, `0x1F`) is kept as the text written: read as a number it would lose what a person wrote
 * (task 001 would be task 1, task 1.10 task 1.1). A field that wants a number reads it with
 * yamlInteger; one that wants text gets it as written, and agentboard writes it back quoted.
 */
function keepNumbersAsWritten(doc: Document): void {
  yaml().visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'number' && node.type === 'PLAIN' && node.tag === undefined && node.source !== String(node.value)) node.value = node.source;
    },
  });
}

/** A whole number given in YAML: a number, or decimal digits that keepNumbersAsWritten kept as written (`040` reads 40, as YAML 1.2 reads it). */
export function yamlInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !/^[-+]?\d+$/.test(value)) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** 1-based line of the first line that starts with "key:" (for findings about a field). */
export function lineOfKey(text: string, key: string): number | undefined {
  const lines = text.split('\n');
  const idx = lines.findIndex((l) => l.startsWith(`${key}:`));
  return idx < 0 ? undefined : idx + 1;
}

/**
 * 1-based line of the deepest key (or list item) of `path` in a YAML text, like ["agents", "gemini",
 * "model"]: where a finding about that value points. Where the path leaves the text (a key that is
 * not there), the line of the last step found; undefined when not even the first one is there.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[]): number | undefined {
  text = withLf(text);
  const { isMap, isNode, isScalar, isSeq, parseDocument } = yaml();
  let node: unknown = parseDocument(text).contents;
  let offset: number | undefined;
  for (const step of path) {
    let start: number | undefined;
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (pair && isScalar(pair.key)) [start, next] = [pair.key.range?.[0], pair.value];
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step];
      if (isNode(item)) [start, next] = [item.range?.[0], item];
    }
    if (start === undefined) break;
    offset = start;
    node = next;
  }
  return offset === undefined ? undefined : lineOf(text, offset);
}

/** Lexer tokens that mark a place without taking any of the source (a document's start, a scalar, a flow's end). */
const MARKERS = new Set(['\x02', '\x18', '\x1f']);
const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:/;

/**
 * The comments of a YAML map, by the top-level key they go with (see YamlComments); undefined when
 * it has none. Found by the `yaml` lexer, so a `#` inside a quoted value or a block of text is not
 * taken for one.
 */
export function yamlComments(text: string): YamlComments | undefined {
  if (!text.includes('#')) return undefined;
  const found: { offset: number; text: string }[] = [];
  let offset = 0;
  const { CST, Lexer } = yaml();
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    if (CST.tokenType(token) === 'comment') {
      // The lexer's tokens, laid end to end, are the text: a comment that is not where it says means something else is.
      if (!text.startsWith(token, offset)) return undefined;
      found.push({ offset, text: token.trimEnd() });
    }
    offset += token.length;
  }
  if (found.length === 0) return undefined;
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const keys = lines.map((line) => TOP_KEY.exec(line)?.[1]);
  const out: YamlComments = {};
  const before = (key: string, comment: string) => ((out.before ??= {})[key] ??= []).push(comment);
  let line = 0;
  const keyAbove = (n: number) => {
    for (let i = n; i >= 0; i--) if (keys[i] !== undefined) return keys[i];
    return undefined;
  };
  for (const c of found) {
    while (line + 1 < starts.length && starts[line + 1]! <= c.offset) line++;
    const lead = text.slice(starts[line]!, c.offset);
    const owner = keyAbove(line);
    if (lead.trim() !== '' && keys[line] !== undefined) (out.inline ??= {})[keys[line]!] = c.text;
    else if (lead !== '' && owner !== undefined) before(owner, c.text);
    else {
      // A comment line of its own goes with the key below it.
      const below = keys.findIndex((k, i) => i > line && k !== undefined);
      if (below < 0) (out.end ??= []).push(c.text);
      else before(keys[below]!, c.text);
    }
  }
  return out;
}

/** emitYaml, with comments put back where they stood: those of keys no longer written go last. */
export function emitYamlCommented(map: Record<string, Value | undefined>, comments: YamlComments | undefined): string {
  if (!comments) return emitYaml(map);
  let out = '';
  const written = new Set<string>();
  for (const [key, value] of Object.entries(map)) {
    if (value === undefined) continue;
    written.add(key);
    for (const c of comments.before?.[key] ?? []) out += `${c}\n`;
    const text = emitYaml({ [key]: value });
    const inline = comments.inline?.[key];
    const eol = text.indexOf('\n');
    out += inline === undefined ? text : `${text.slice(0, eol)} ${inline}${text.slice(eol)}`;
  }
  const left = [...Object.entries(comments.before ?? {}).flatMap(([key, lines]) => (written.has(key) ? [] : lines)), ...Object.entries(comments.inline ?? {}).flatMap(([key, c]) => (written.has(key) ? [] : [c])), ...(comments.end ?? [])];
  for (const c of left) out += `${c}\n`;
  return out;
}
