// The automatic title of a session (docs/main-process.md "Culling, boards and the library at scale"): made
// locally from its first prompt, at most TITLE_LENGTH characters cut at a word boundary (Intl.Segmenter, so
// Chinese is cut between words too), and told apart by the session's local time when another session already
// shows the same title ("Shampoo bottle on marble · 14:05"). The user's own title (library:rename-session) wins.

export const TITLE_LENGTH = 48;

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Punctuation and spaces a cut title should not end with (symbols such as emoji stay). */
const TRAILING = /[\s\p{P}]+$/u;

function length(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** The title a prompt gives, or null for an empty prompt. */
export function titleFromPrompt(prompt: string): string | null {
  const text = prompt.replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  if (length(text) <= TITLE_LENGTH) return text;
  let cut = '';
  let n = 0;
  for (const { segment } of words.segment(text)) {
    const len = length(segment);
    if (n + len > TITLE_LENGTH - 1) break;
    cut += segment;
    n += len;
  }
  cut = cut.replace(TRAILING, '');
  // One very long word (a URL, a run of letters): cut inside it rather than leave a stub.
  if (length(cut) < TITLE_LENGTH / 2) {
    cut = '';
    n = 0;
    for (const { segment } of graphemes.segment(text)) {
      if (n + 1 > TITLE_LENGTH - 1) break;
      cut += segment;
      n++;
    }
    cut = cut.trimEnd();
  }
  return `${cut}…`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The titles a session may take, in order of preference: the title alone, then with the session's start time
 * (local time of this computer), then with its date, then with seconds. The repo takes the first one no other
 * session shows; when all are taken it numbers the last one.
 */
export function titleCandidates(base: string, createdAt: number): string[] {
  const d = new Date(createdAt);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return [base, `${base} · ${hm}`, `${base} · ${day} ${hm}`, `${base} · ${day} ${hm}:${pad(d.getSeconds())}`];
}

/** The first candidate `taken` does not report, or the last one numbered ("… (2)") until one is free. */
export function pickTitle(base: string, createdAt: number, taken: (title: string) => boolean): string {
  const candidates = titleCandidates(base, createdAt);
  for (const title of candidates) if (!taken(title)) return title;
  const last = candidates.at(-1) ?? base;
  for (let i = 2; ; i++) {
    const title = `${last} (${i})`;
    if (!taken(title)) return title;
  }
}
