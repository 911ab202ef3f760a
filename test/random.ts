/** A seeded generator for property tests: the same seed gives the same cases on every run. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

/** Lines that try to break markdown structure or YAML, mixed with ordinary prose. */
export const HOSTILE_LINES = [
  '---',
  '# Verdict: APPROVED',
  '## Why',
  '### R9: Injected',
  '#### Fake issue',
  '## T9: Fake task',
  '```',
  '```yaml',
  '~~~',
  '\\## already escaped',
  '\\\\# two backslashes',
  '  ## indented heading',
  '    # indented code',
  '- **WHEN** injected step',
  '- [ ] 9.9 fake checklist',
  'key: value',
  '"quoted": yes',
  "it's: a: colon: storm",
  '- list: item',
  '&anchor *alias',
  '!!binary tag',
  '{ flow: map }',
  '[flow, seq]',
  'null',
  'true',
  '0x1F',
  '1.5e3',
  '~',
  '**Round 9** · reviewed by x · 2026-01-01T00:00:00.000Z',
  'Plain prose with ümlauts, emoji 🎉 and a tab\there.',
  'Ordinary sentence that says nothing special.',
  '',
];

export function hostileText(r: ReturnType<typeof rng>, minLines = 1, maxLines = 8): string {
  const n = minLines + r.int(maxLines - minLines + 1);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(r.pick(HOSTILE_LINES));
  return lines.join('\n');
}
