// DESIGN.md §3 "auto": one function decides whether a prompt asks for text in the image, so the app's
// estimate and the service's model choice can never disagree.

export interface TextIntentMatch {
  /** What kind of cue matched, for the "why" shown next to auto's choice. */
  kind: 'quoted' | 'keyword' | 'currency';
  /** The matched fragment of the prompt, as written. */
  match: string;
}

const QUOTED = /"[^"\n]+"|“[^”\n]+”|‘[^’\n]+’|「[^」\n]+」|『[^』\n]+』/u;
const ENGLISH_KEYWORDS =
  /\b(?:text|slogan|slogans|headline|headlines|caption|captions|label|labels|brand name|price|prices|sale|typography)\b|\d+\s?% off\b|% off\b/iu;
const CHINESE_KEYWORDS = /文字|文案|标语|口号|标题|价格|品牌|字样|促销|折扣|写着|印有/u;
const CURRENCY_AMOUNT = /[$€£¥￥]\s?\d/u;

/** Returns the first cue that the prompt asks for text in the image, or null. */
export function findTextIntent(prompt: string | undefined | null): TextIntentMatch | null {
  if (!prompt) return null;
  const quoted = QUOTED.exec(prompt);
  if (quoted) return { kind: 'quoted', match: quoted[0] };
  const english = ENGLISH_KEYWORDS.exec(prompt);
  if (english) return { kind: 'keyword', match: english[0] };
  const chinese = CHINESE_KEYWORDS.exec(prompt);
  if (chinese) return { kind: 'keyword', match: chinese[0] };
  const currency = CURRENCY_AMOUNT.exec(prompt);
  if (currency) return { kind: 'currency', match: currency[0] };
  return null;
}

export function asksForText(prompt: string | undefined | null): boolean {
  return findTextIntent(prompt) !== null;
}
