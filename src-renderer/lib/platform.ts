// The OS the window runs on, on <html data-os> before anything is styled, so the stylesheet names only the font
// families that exist there (theme.css). A family the page names but the OS lacks is not free: Blink looks each one
// up per size and weight whenever a character falls through to it (every Chinese character when the first family
// has no CJK), and in Chromium's Linux sandbox each look-up is a synchronous call to the browser process.

export type Os = 'mac' | 'windows' | 'linux' | 'other';

/** The OS from `navigator.platform` ("MacIntel", "Win32", "Linux x86_64", ...). */
export function osOf(platform: string): Os {
  if (/^Mac|^iP(hone|ad|od)/.test(platform)) return 'mac';
  if (/^Win/.test(platform)) return 'windows';
  if (/Linux|X11/.test(platform)) return 'linux';
  return 'other';
}

/** Runs before the app renders (first imports of main.tsx). */
export function bootPlatform(): void {
  document.documentElement.dataset.os = osOf(navigator.platform);
}

// Only in a page (unit tests import osOf in Node).
if (typeof document !== 'undefined') bootPlatform();
