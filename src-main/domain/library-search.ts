// Prompt search as plain functions (docs/main-process.md "Culling, boards and the library at scale"): how a query
// typed in the gallery becomes FTS5 MATCH expressions, and what text the two prompt indexes hold. The library has
// two contentless FTS5 tables keyed by turns.seq (migration 0300):
//   prompt_trigrams (tokenizer trigram): any substring of 3 or more characters, case- and accent-insensitive,
//     the same matches the old `LIKE '%…%'` gave, found through the index;
//   prompt_words (tokenizer unicode61 over text with a space around every CJK character): terms of 1 or 2
//     characters, which trigrams cannot index. A CJK term matches as a substring (each character is a token, a
//     term is a phrase of them); a Latin term matches the start of a word ("ai" finds "AI" and "aisle", not "hair").
// A query is split into terms at white space (a "quoted phrase" stays one term); an image matches when its
// prompt matches every term. Terms with no letter or digit and under 3 characters (say "#") are ignored.

/** Han, kana and Hangul: written without spaces, so every character is a word of its own in prompt_words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const HAS_TOKEN = /[\p{L}\p{N}]/u;

/** The text stored in prompt_words for a prompt (and the form a short term is matched in). */
export function wordsText(prompt: string): string {
  return prompt.replace(CJK, ' $& ').replace(/\s+/g, ' ').trim();
}

/** What a turn's prompt puts into prompt_trigrams and prompt_words; null for an empty prompt (nothing to find). */
export function promptIndexRows(prompt: string): { trigrams: string; words: string } | null {
  if (prompt.trim() === '') return null;
  return { trigrams: prompt, words: wordsText(prompt) };
}

/** An FTS5 string (a phrase): double quotes inside are doubled, so nothing typed is FTS5 syntax. */
function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

export interface PromptSearch {
  /** MATCH expression for prompt_trigrams, or null when no term has 3 or more characters. */
  trigrams: string | null;
  /** MATCH expression for prompt_words, or null when no term is shorter. */
  words: string | null;
}

/** The terms of a query: "quoted phrases" and runs without white space. */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const m of query.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const term = (m[1] ?? m[2] ?? '').replace(/\s+/g, ' ').trim();
    if (term !== '') terms.push(term);
  }
  return terms;
}

/** The MATCH expressions for a gallery query; null when the query searches for nothing (empty, or only "#"). */
export function promptSearch(query: string): PromptSearch | null {
  const trigrams: string[] = [];
  const words: string[] = [];
  for (const term of searchTerms(query)) {
    if ([...term].length >= 3) trigrams.push(ftsString(term));
    else if (HAS_TOKEN.test(term)) words.push(`${ftsString(wordsText(term))}*`);
  }
  if (trigrams.length === 0 && words.length === 0) return null;
  return { trigrams: trigrams.length > 0 ? trigrams.join(' AND ') : null, words: words.length > 0 ? words.join(' AND ') : null };
}
