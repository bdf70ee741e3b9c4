import type { CSSProperties } from 'react';

/** Where a virtualized list places a row: absolutely, full width, `top` pixels down its list. */
export function virtualRowStyle(height: number, top: number): CSSProperties {
  return { position: 'absolute', top: 0, left: 0, right: 0, height, transform: `translateY(${top}px)` };
}
