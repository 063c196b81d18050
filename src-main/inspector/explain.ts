// Verification explained (issue 6 §2): runs the one shared verifier (src-shared/webhook-signature.ts) and turns
// its first failure into a diagnosis an integrator can act on: which secret, which byte, which clock.
import type { Diagnosis, DiagnosisCode } from '../../src-shared/ipc/inspector.ts';
import type { Language } from '../../src-shared/language.ts';
import {
  computeWebhookSignature,
  constantTimeEqual,
  verifyWebhook,
  type HeaderBag,
  type VerificationReport,
} from '../../src-shared/webhook-signature.ts';

export interface KnownSecret {
  secret: string;
  /** When Regenerate replaced it (ms since epoch). */
  replacedAt: number;
}

export interface ExplainInput {
  headers: HeaderBag;
  body: Uint8Array;
  /** Unix seconds. */
  now: number;
  /** The secret to verify with; null when none is stored. */
  secret: string | null;
  /** Secrets replaced by Regenerate, newest first: an old match means the sender still signs with one. */
  previousSecrets?: readonly KnownSecret[];
  /** Earlier verified attempts of the same delivery id, to tell "body changed" or "timestamp changed" from "wrong secret". */
  earlierAttempts?: ReadonlyArray<{ body: Uint8Array; timestamp: string | null }>;
}

export interface Explained {
  report: VerificationReport;
  code: DiagnosisCode;
  params: Record<string, string | number | null>;
}

/** Turns raw header pairs into the verifier's bag (names lower-cased, repeated headers kept). */
export function headerBag(pairs: ReadonlyArray<readonly [string, string]>): HeaderBag {
  const bag: Record<string, string[]> = {};
  for (const [name, value] of pairs) (bag[name.toLowerCase()] ??= []).push(value);
  return bag;
}

function firstHeader(bag: HeaderBag, name: string): string | null {
  const v = bag[name];
  if (v === undefined) return null;
  return typeof v === 'string' ? v : (v[0] ?? null);
}

/** Does any usable v1 part of the report equal the HMAC of (timestamp, body) under `secret`? */
async function matchesWith(report: VerificationReport, secret: string, body: Uint8Array, timestamp = report.timestamp.raw): Promise<boolean> {
  if (timestamp === null) return false;
  const expected = await computeWebhookSignature(secret, timestamp, body);
  return report.signature.parts.some((p) => p.problem === null && p.value !== null && constantTimeEqual(expected, p.value.toLowerCase()));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Bodies an intermediary commonly makes from the original; if one of them was signed, the body changed. */
function likelyOriginals(body: Uint8Array): Array<{ how: string; bytes: Uint8Array }> {
  const text = decoder.decode(body);
  const out: Array<{ how: string; bytes: Uint8Array }> = [];
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed !== text) out.push({ how: 'trailing_whitespace', bytes: encoder.encode(trimmed) });
  if (text.includes('\r\n')) out.push({ how: 'line_endings', bytes: encoder.encode(text.replace(/\r\n/g, '\n')) });
  try {
    const compact = JSON.stringify(JSON.parse(text));
    if (compact !== text && compact !== trimmed) out.push({ how: 'reserialized', bytes: encoder.encode(compact) });
  } catch {
    // Not JSON: no re-serialised form to try.
  }
  return out;
}

/** Verifies and diagnoses one request. Never throws on any input. */
export async function explainDelivery(input: ExplainInput): Promise<Explained> {
  const report = await verifyWebhook({ headers: input.headers, body: input.body, secret: input.secret ?? '', now: input.now });
  if (input.secret === null) {
    // Without a secret there is nothing to compare: show the parts, not an HMAC of an empty key.
    report.signature.expected = null;
    for (const part of report.signature.parts) part.matches = false;
    report.signature.verdict = 'skip';
    report.signatureValid = false;
    report.valid = false;
  }
  const params: Record<string, string | number | null> = {};
  const skew = report.timestamp.skewSeconds;

  let code: DiagnosisCode;
  switch (report.reason) {
    case null:
      code = input.secret === null ? 'no_secret' : 'valid';
      break;
    case 'missing_header':
      code = 'missing_header';
      params.missing = report.headers.missing.join(', ');
      break;
    case 'unknown_event':
      code = 'unknown_event';
      params.event = report.event.value;
      break;
    case 'timestamp_invalid':
      code = 'timestamp_invalid';
      params.timestamp = report.timestamp.raw;
      break;
    case 'timestamp_stale':
    case 'timestamp_future':
      code = report.reason;
      params.skew = skew === null ? null : Math.abs(skew);
      params.tolerance = report.timestamp.toleranceSeconds;
      break;
    case 'no_v1_signature':
      code = 'no_v1_signature';
      params.parts = report.signature.parts.map((p) => p.raw.slice(0, 24)).join(', ') || null;
      break;
    case 'body_not_json':
    case 'body_shape':
      code = report.reason;
      params.shape = report.body.shape;
      break;
    case 'signature_mismatch':
      code = await diagnoseMismatch(report, input, params);
      break;
  }
  params.deliveryId = firstHeader(input.headers, 'x-service-delivery');
  return { report, code, params };
}

async function diagnoseMismatch(report: VerificationReport, input: ExplainInput, params: Record<string, string | number | null>): Promise<DiagnosisCode> {
  if (input.secret === null) return 'no_secret';
  for (const old of input.previousSecrets ?? []) {
    if (await matchesWith(report, old.secret, input.body)) {
      params.replacedAt = old.replacedAt;
      return 'old_secret';
    }
  }
  for (const candidate of likelyOriginals(input.body)) {
    if (await matchesWith(report, input.secret, candidate.bytes)) {
      params.how = candidate.how;
      return 'body_changed';
    }
  }
  for (const earlier of input.earlierAttempts ?? []) {
    // spec §6: each retry is signed anew with its own timestamp; a signature that fits an earlier attempt's
    // timestamp means the timestamp header was edited without re-signing (a doctored replay).
    if (earlier.timestamp !== null && earlier.timestamp !== report.timestamp.raw && (await matchesWith(report, input.secret, input.body, earlier.timestamp))) {
      params.signedAt = earlier.timestamp;
      return 'timestamp_changed';
    }
    if (!sameBytes(earlier.body, input.body)) {
      params.how = 'differs_from_earlier_attempt';
      return 'body_changed';
    }
  }
  return 'wrong_secret';
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

type Params = Record<string, string | number | null>;

const HOW: Record<string, { zh: string; en: string }> = {
  trailing_whitespace: { zh: '末尾多了空白或换行', en: 'whitespace or a newline was added at the end' },
  line_endings: { zh: '换行符被改成了 CRLF', en: 'line endings were changed to CRLF' },
  reserialized: {
    zh: '正文被解析后重新序列化（空格或字段顺序变了）',
    en: 'the body was parsed and re-serialised (spacing or key order changed)',
  },
  differs_from_earlier_attempt: {
    zh: '与同一投递 ID 之前的尝试相比，正文字节不同',
    en: 'its bytes differ from an earlier attempt with the same delivery id',
  },
};

function fmtTime(ms: number | null | string, language: Language): string {
  if (typeof ms !== 'number') return '?';
  return new Date(ms).toLocaleString(language === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });
}

const MESSAGES: Record<DiagnosisCode, (p: Params, l: Language) => { zh: string; en: string }> = {
  valid: () => ({
    zh: '签名与存储的签名密钥一致，时间戳在 5 分钟窗口内，正文是文档规定的 JSON。',
    en: 'The signature matches the stored signing secret, the timestamp is inside the 5-minute window and the body is JSON of the documented shape.',
  }),
  missing_header: (p) => ({
    zh: `缺少请求头：${p.missing}。服务的每次投递都带有这些头；这个请求可能不是服务发出的，或者被代理删掉了。`,
    en: `Missing header: ${p.missing}. Every delivery from the service carries them; this request did not come from the service, or a proxy removed them.`,
  }),
  unknown_event: (p) => ({
    zh: `X-Service-Event 的值 "${p.event}" 不是 image_pack.published 或 ping。`,
    en: `X-Service-Event is "${p.event}", which is neither image_pack.published nor ping.`,
  }),
  timestamp_invalid: (p) => ({
    zh: `X-Service-Timestamp "${p.timestamp}" 不是以秒为单位的 Unix 时间（只能有一个纯数字的值）。`,
    en: `X-Service-Timestamp "${p.timestamp}" is not Unix time in seconds (a single value of digits only).`,
  }),
  timestamp_stale: (p) => ({
    zh: `时间戳已过期：比现在早 ${p.skew} 秒，超过 ${p.tolerance} 秒的容差。这是一次重放，或者接收方的时钟不准。签名本身是对的。`,
    en: `Stale timestamp: ${p.skew} s older than now, beyond the ${p.tolerance} s tolerance. This is a replay, or the receiver's clock is off. The signature itself is correct.`,
  }),
  timestamp_future: (p) => ({
    zh: `时间戳在未来：比现在晚 ${p.skew} 秒，超过 ${p.tolerance} 秒的容差。检查发送方或本机的时钟。`,
    en: `Timestamp in the future: ${p.skew} s ahead of now, beyond the ${p.tolerance} s tolerance. Check the sender's or this machine's clock.`,
  }),
  no_v1_signature: (p) => ({
    zh: `X-Service-Signature 中没有可用的 v1 部分（收到：${p.parts ?? '空'}）。格式应为 v1= 后跟 64 位十六进制 HMAC-SHA256。`,
    en: `X-Service-Signature has no usable v1 part (received: ${p.parts ?? 'empty'}). It must be v1= followed by a 64-digit hex HMAC-SHA256.`,
  }),
  no_secret: () => ({
    zh: '没有存储签名密钥，无法核对签名。在本地环境中点击“连接本地服务”，或粘贴密钥后验证。',
    en: 'No signing secret is stored, so the signature cannot be checked. Click "Connect local service" in the Local environment, or paste the secret to verify.',
  }),
  wrong_secret: () => ({
    zh: '签名不匹配：用存储的密钥算出的 HMAC 与收到的不同，之前的密钥也都不匹配。发送方用的是另一个密钥（另一个账户或环境）。',
    en: 'Signature mismatch: the HMAC computed with the stored secret differs from the one received, and no earlier secret matches either. The sender signs with another secret (another account or environment).',
  }),
  old_secret: (p, l) => ({
    zh: `签名使用的是旧密钥，它已在 ${fmtTime(p.replacedAt ?? null, l)} 被“重新生成”替换。重新生成后旧密钥立即失效；请在接收方更新为新密钥。`,
    en: `Signed with an old secret, replaced by Regenerate at ${fmtTime(p.replacedAt ?? null, l)}. The old secret stops working at once after Regenerate; update the receiver to the new one.`,
  }),
  timestamp_changed: (p) => ({
    zh: `时间戳被改过：签名对应的是同一投递 ID 之前一次尝试的时间戳 ${p.signedAt}，而不是这次的 X-Service-Timestamp。服务每次重试都会用新时间戳重新签名；这是被篡改的重放。`,
    en: `The timestamp was changed: the signature belongs to ${p.signedAt}, the timestamp of an earlier attempt of this delivery id, not to this X-Service-Timestamp. The service re-signs every retry with a fresh timestamp; this is a doctored replay.`,
  }),
  body_changed: (p) => ({
    zh: `正文被改动过：${HOW[String(p.how)]?.zh ?? ''}。签名覆盖原始字节；请用收到的原始正文验证，不要先解析再序列化。`,
    en: `The body was changed: ${HOW[String(p.how)]?.en ?? ''}. The signature covers the raw bytes; verify the body exactly as received, never a parsed and re-serialised copy.`,
  }),
  body_not_json: () => ({
    zh: '签名正确，但正文不是合法的 UTF-8 JSON。',
    en: 'The signature is correct, but the body is not valid UTF-8 JSON.',
  }),
  body_shape: (p) => ({
    zh: `签名正确，但正文不符合文档的结构：${p.shape}。`,
    en: `The signature is correct, but the body is not of the documented shape: ${p.shape}.`,
  }),
  too_large: (p) => ({
    zh: `正文超过 1 MB（${p.bytes} 字节），已以 413 拒绝，未读取。`,
    en: `The body is over 1 MB (${p.bytes} bytes); refused with 413 and not read.`,
  }),
  wrong_path: (p) => ({
    zh: `路径 ${p.path} 不是 /webhooks，已回答 404。`,
    en: `The path ${p.path} is not /webhooks; answered 404.`,
  }),
};

/** The plain-language explanation of a diagnosis in the UI language. */
export function describeDiagnosis(code: DiagnosisCode, params: Params, language: Language): Diagnosis {
  const texts = MESSAGES[code](params, language);
  return { code, params, message: texts[language] };
}
