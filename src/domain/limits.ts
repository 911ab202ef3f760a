/**
 * Every size limit in one place: the input schemas and the document rules both read these. Lengths
 * are characters as JSON Schema counts them (code points: domain/text.ts charCount).
 */
export const LIMITS = {
  changeIdMin: 3,
  changeIdMax: 64,
  agentIdMax: 64,
  personNameMax: 64,
  taskIdMax: 32,
  requirementIdMax: 40,
  titleMax: 200,
  whyMin: 50,
  whyMax: 2000,
  overviewMin: 50,
  sectionMax: 20000,
  taskDescriptionMax: 2000,
  noteMax: 4000,
  listMax: 100,
  tasksMax: 1000,
  requirementsMax: 200,
  issuesMax: 200,
  inputBytesMax: 1024 * 1024,
  fileBytesMax: 32 * 1024 * 1024,
  /**
   * One MCP message on stdio: room for a large task list (1,000 tasks with full descriptions), not
   * for every input the schemas allow (long file lists or escaped text can go past it): a bigger
   * message is refused under its own id, and the agent is told to send less at once.
   */
  messageBytesMax: 8 * 1024 * 1024,
  inputTimeoutDefault: 30,
  inputTimeoutMax: 120,
  pageDefault: 50,
  pageMax: 500,
  /** A next_cursor: it carries the query of the list it continues. */
  cursorMax: 4000,
  /** A page of a document: lines of its markdown, or items of its list. */
  documentPageMax: 10_000,
  /** The longest part of a line in a page of markdown: a longer line is paged in parts. */
  linePartMax: 4_000,
} as const;
