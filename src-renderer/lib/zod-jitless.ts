// Imported first by generation-data-reader.ts, the renderer's one module that runs zod (loaded on the first
// dropped file). zod would otherwise probe once whether it may compile validators with `new Function`, which the
// CSP refuses (script-src 'self', no 'unsafe-eval'): a console error and a CSP violation report on the first
// drop. The interpreter is what runs under that CSP anyway.
import { z } from 'zod';

z.config({ jitless: true });
