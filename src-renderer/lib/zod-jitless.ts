// Imported first by main.tsx. zod would otherwise probe once whether it may compile validators with
// `new Function`, which the CSP refuses (script-src 'self', no 'unsafe-eval'): a console error and a CSP
// violation report on every start. The interpreter is what runs under that CSP anyway.
import { z } from 'zod';

z.config({ jitless: true });
