// Names and codes the user types (product SKUs and names, shot and shot-list names, board and session names, key
// names): one line of text. Control characters (line breaks, tabs, NUL, escapes) are refused, and the contract's
// invalid_input names the field, because such a name breaks file names, CSV rows and every list it is shown in.
import { z } from 'zod';
import { CONTROL_CHARACTER } from '../limits.ts';

/** Why a one-line name was refused (the field is named by the contract's invalid_input). */
export const CONTROL_CHARACTERS_REFUSED = 'must not contain control characters (line breaks, tabs)';

/** Trimmed, 1 to `max` characters, no control character. */
export function oneLineName(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !CONTROL_CHARACTER.test(text), CONTROL_CHARACTERS_REFUSED);
}
