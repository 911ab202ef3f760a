/** Whether the console has the terminal, or has lent it to a pager or an editor. */
export class ScreenControl {
  private lent = false;
  private readonly listeners = new Set<() => void>();

  get = (): boolean => this.lent;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(lent: boolean): void {
    this.lent = lent;
    for (const l of this.listeners) l();
  }
}

/** The size of the terminal the console draws in. */
export interface Size {
  width: number;
  height: number;
}
