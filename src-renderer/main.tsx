// First: the remembered theme (no flash of the other theme) and the OS (the font families the stylesheet names)
// are on <html> before anything renders.
import './lib/theme.ts';
import './lib/platform.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { galleryQuery, warmThumbnails } from './features/gallery/index.ts';
import { settingsQuery } from './features/settings/index.ts';
import { applyTheme } from './lib/theme.ts';
import { setUiLanguage } from './i18n/index.ts';
import './styles/theme.css';
import './styles/app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // Main is local and the library is the source of truth: no background refetch storms, no retries of
    // calls that may cost credits (mutations never retry by default).
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
  },
});

/**
 * Thumbnails asked for at start-up: the side gallery's first rows at its default width and tile size (a wider
 * gallery or smaller tiles show more; those load when the grid asks for them).
 */
const FIRST_THUMBNAILS = 24;

/** The longest the first render waits for the settings. */
const SETTINGS_WAIT_MS = 1_000;

const root = document.getElementById('root');
if (root) {
  // The first gallery page is asked for at once, and its first thumbnails as soon as it is in: they load while
  // React renders and lays out the app, instead of being asked for by its effects.
  const firstGallery = galleryQuery({});
  void queryClient.prefetchInfiniteQuery(firstGallery).then(() => {
    const first = queryClient.getQueryData(firstGallery.queryKey)?.pages[0];
    if (first) warmThumbnails(first, FIRST_THUMBNAILS);
  });
  // The app renders once the settings are in (milliseconds; the preload asked for them as the window opened), in
  // their language and theme, instead of in the defaults and then all again; after SETTINGS_WAIT_MS it renders
  // anyway (a keychain that hangs must not leave a blank window), and the settings apply when they come.
  const settingsIn = queryClient
    .prefetchQuery(settingsQuery)
    .then(() => {
      const settings = queryClient.getQueryData(settingsQuery.queryKey);
      if (settings) {
        setUiLanguage(settings.language);
        applyTheme(settings.theme);
      }
    })
    .catch(() => undefined);
  void Promise.race([settingsIn, new Promise((resolve) => setTimeout(resolve, SETTINGS_WAIT_MS))]).finally(() => {
    // The first render is a transition: React yields to the page every few milliseconds, so the gallery's answer
    // (and the thumbnails it asks for) is taken in while it renders, not after.
    startTransition(() => {
      createRoot(root).render(
        <StrictMode>
          <QueryClientProvider client={queryClient}>
            <App />
          </QueryClientProvider>
        </StrictMode>,
      );
    });
  });
}
