/// <reference types="vite/client" />
import type { StudioApi } from '../src-shared/ipc/index.ts';

declare global {
  interface Window {
    /** Exposed by the preload (or the browser harness's client). Touched only by lib/desktop.ts. */
    api: StudioApi;
  }
}
