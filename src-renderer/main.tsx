// First: the remembered theme (no flash of the other theme) and the OS (the font families the stylesheet names)
// are on <html> before anything renders.
import './lib/theme.ts';
import './lib/platform.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { galleryQuery, warmThumbnails } from './features/gallery/queries.ts';
import { settingsQuery } from './features/settings/queries.ts';
import './i18n/index.ts';
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

const root = document.getElementById('root');
if (root) {
  // The settings and the gallery's first page (the studio opens on them) are asked for before React's first
  // render, so their answers are in by the time it has committed, instead of being asked for by its effects.
  void queryClient.prefetchQuery(settingsQuery);
  // The first thumbnails are asked for as soon as that page is in (they load while React renders).
  const firstGallery = galleryQuery({});
  void queryClient.prefetchInfiniteQuery(firstGallery).then(() => {
    const first = queryClient.getQueryData(firstGallery.queryKey)?.pages[0];
    if (first) warmThumbnails(first, FIRST_THUMBNAILS);
  });
  // The first render is a transition: React yields to the page every few milliseconds, so the answers above
  // (and the thumbnails they ask for) are taken in while it renders, not after.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}
