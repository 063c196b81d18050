// The colour theme chosen in Settings (system, light, dark), applied to <html data-theme>. settings.json in main
// is the source of truth; a copy in localStorage lets the first paint of the next start use it before main
// answers (in Electron, main also sets nativeTheme, so prefers-color-scheme agrees from the start).
import type { Theme } from '../../src-shared/ipc/settings.ts';

const STORAGE_KEY = 'studio.theme';

function isTheme(value: unknown): value is Theme {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  // Only a change touches <html>: any write to its attributes restyles the whole document.
  if (theme === 'system') {
    if (root.dataset.theme !== undefined) delete root.dataset.theme;
  } else if (root.dataset.theme !== theme) root.dataset.theme = theme;
  try {
    if (localStorage.getItem(STORAGE_KEY) !== theme) localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Storage may be unavailable (private mode, a sandboxed page): the theme still applies for this page.
  }
}

/** Runs before the app renders (first import of main.tsx): the last known theme, no flash of the other one. */
export function bootTheme(): void {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isTheme(stored) && stored !== 'system') document.documentElement.dataset.theme = stored;
  } catch {
    // Nothing stored yet: the system's theme until main answers.
  }
}

bootTheme();
