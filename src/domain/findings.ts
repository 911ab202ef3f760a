/** Validation as data: every finding has a level, a place, a rule code, a message and a fix hint. */

export type FindingLevel = 'error' | 'warning';

export interface Finding {
  level: FindingLevel;
  /** Path relative to the repository root, like agentd/changes/add-auth/spec.md. */
  file: string;
  line?: number;
  rule: string;
  message: string;
  fix: string;
}

/** Collects findings for one file; `line` is relative to the text being read, `offset` maps it to the file. */
export class FindingSink {
  constructor(
    readonly file: string,
    private readonly offset = 0,
    readonly findings: Finding[] = [],
  ) {}

  /** A sink for a part of the file that starts `offset` lines further down; it shares the list. */
  at(offset: number): FindingSink {
    return new FindingSink(this.file, this.offset + offset, this.findings);
  }

  /** The file's line number of a line of the text being read, for a message that names another line. */
  fileLine(line: number): number {
    return line + this.offset;
  }

  error(rule: string, message: string, fix: string, line?: number): void {
    this.push('error', rule, message, fix, line);
  }

  warn(rule: string, message: string, fix: string, line?: number): void {
    this.push('warning', rule, message, fix, line);
  }

  private push(level: FindingLevel, rule: string, message: string, fix: string, line?: number): void {
    const finding: Finding = { level, file: this.file, rule, message, fix };
    if (line !== undefined) finding.line = this.fileLine(line);
    this.findings.push(finding);
  }
}

export function hasErrors(findings: Finding[]): boolean {
  return findings.some((f) => f.level === 'error');
}

export function formatFinding(f: Finding): string {
  const where = f.line !== undefined ? `${f.file}:${f.line}` : f.file;
  return `${where}: ${f.level} ${f.rule}: ${f.message} (fix: ${f.fix})`;
}
