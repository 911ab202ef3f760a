/** A value made on first use and kept: for what a command may never need, like a zod schema (building schemas costs startup time). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
