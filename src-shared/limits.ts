// The contract's fixed lists and limits, without zod: the renderer shows and checks them (options, maxlength,
// counters) without evaluating the IPC contract's schemas at start-up. The contract modules (ipc/batch.ts,
// ipc/export.ts, ipc/settings.ts, api.ts) build their schemas from these and re-export them.

// ---- batch: products and shot lists (docs/catalog.md) ----

export const SKU_MAX = 64;
/** A control character (line break, tab, NUL, escape): never in a one-line name or a SKU (ipc/text-fields.ts, product-csv.ts). */
export const CONTROL_CHARACTER = /\p{Cc}/u;
export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_PROMPT_MAX = 3000;
export const PRODUCT_NOTES_MAX = 2000;
/** The largest product file (CSV) the import takes, in bytes (as text: UTF-16 units). */
export const PRODUCT_CSV_MAX_BYTES = 20 * 1024 * 1024;
export const SHOT_NAME_MAX = 40;
export const SHOT_ADDITION_MAX = 1000;
export const SHOTS_MAX = 20;
export const BATCH_CONCURRENCY_MAX = 4;
export const DEFAULT_BATCH_CONCURRENCY = 2;

// ---- export ----

export const EXPORT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The quality JPEG and WebP get when none is given. */
export const DEFAULT_EXPORT_QUALITY = 90;

/** Which images a marketplace export writes (batch:export `mode`): each cell's pick, the starred, or every result not rejected. */
export const EXPORT_SELECTIONS = ['picks', 'starred', 'not_rejected'] as const;

// ---- settings ----

/** The app's colour theme: the system's, or light or dark whatever the system says. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

// ---- the service's API keys (spec §2) ----

export const API_SCOPES = ['generate:write', 'assets:read', 'documents:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

// ---- the local service's request ledger (docs/local-service.md "The request ledger") ----

/** Route names of ledger entries: the /api routes, an admin publish (it queues a delivery), and `other`. */
export const REQUEST_ROUTES = ['generate', 'file', 'publication', 'publish', 'other'] as const;
export type RequestRoute = (typeof REQUEST_ROUTES)[number];
