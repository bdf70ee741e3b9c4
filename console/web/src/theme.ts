import { useCallback, useState } from 'react';

/** What a person picked in the theme menu; `system` follows `prefers-color-scheme`. */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** The localStorage key, also read by public/theme.js before the first paint. */
const KEY = 'keel-theme';

export function readTheme(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Applies `choice` to <html> (styles.css keys the palette on `data-theme`) and remembers it. */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  try {
    if (choice === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
}

export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(readTheme);
  const set = useCallback((next: ThemeChoice) => {
    applyTheme(next);
    setChoice(next);
  }, []);
  return [choice, set];
}
