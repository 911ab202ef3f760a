/**
 * What an import found in each source file: where each line that was read into a field went, the
 * documents and attachments it became, and every finding. The importer's parsers return these;
 * nothing here touches the disk.
 */

/** A line of a source file read into a field (or a heading read as structure), and where it went. */
export interface ReportLine {
  line: number;
  text: string;
  to: string;
}

export interface SourceFinding {
  level: 'error' | 'warning' | 'info';
  line?: number;
  message: string;
  fix: string;
}

export interface FileReport {
  /** The file, relative to the source repository's root. */
  file: string;
  /** What it became: "spec.md", "attachments/STATE.yaml", or why nothing was made of it. */
  to: string[];
  lines: ReportLine[];
  findings: SourceFinding[];
}

/** Collects the report of one source file while it is read. */
export class FileLog {
  readonly report: FileReport;
  /** What was found of each document this file is read into ("tasks.md"), as it lands: taken back when it does not (unsay). */
  private readonly ofDocument = new Map<string, SourceFinding[]>();

  constructor(file: string) {
    this.report = { file, to: [], lines: [], findings: [] };
  }

  /** Line numbers are those of the file; `offset` lines are before the part being read. */
  mapped(line: number, text: string, to: string): void {
    this.report.lines.push({ line, text: text.trim(), to });
  }

  went(to: string): void {
    if (!this.report.to.includes(to)) this.report.to.push(to);
  }

  finding(level: SourceFinding['level'], message: string, fix: string, line?: number): void {
    const f: SourceFinding = { level, message, fix };
    if (line !== undefined) f.line = line;
    this.report.findings.push(f);
  }

  /** The findings made since the report had `from` of them are of the document `doc` as it lands (a task renumbered on the board). */
  saidOf(doc: string, from: number): void {
    this.ofDocument.set(doc, [...(this.ofDocument.get(doc) ?? []), ...this.report.findings.slice(from)]);
  }

  /** The document `doc` does not land from this file after all: what was found of it as it would have landed is not said. */
  unsay(doc: string): void {
    const said = new Set(this.ofDocument.get(doc) ?? []);
    this.report.findings = this.report.findings.filter((f) => !said.has(f));
    this.ofDocument.delete(doc);
  }
}
