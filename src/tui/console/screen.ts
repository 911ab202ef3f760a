import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

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

/** The terminal's size, following resizes; fixed when given (tests). */
export function useSize(fixed: Partial<Size>): Size {
  const { stdout } = useStdout();
  const read = () => ({ width: fixed.width ?? (stdout.columns || 80), height: fixed.height ?? (stdout.rows || 24) });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed.width, fixed.height]);
  return size;
}
