// The webhook inspector's part of the main catalog (./messages.ts merges it): codes its errors and
// explanations use, in zh and en. What the inspector stores about a delivery is a diagnosis code and its
// facts; the text is made here when it is read, in the UI language of that moment.
type Params = Record<string, unknown>;
type Text = { zh: (p: Params) => string; en: (p: Params) => string };

function s(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function time(ms: unknown, locale: string): string {
  return typeof ms === 'number' ? new Date(ms).toLocaleString(locale, { hour12: false }) : '?';
}

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

/** Why a received or pasted request did (not) verify (spec §6), keyed `diagnosis_<DiagnosisCode>`. */
const DIAGNOSES = {
  diagnosis_valid: {
    zh: () => '签名与存储的签名密钥一致，时间戳在 5 分钟窗口内，正文是文档规定的 JSON。',
    en: () =>
      'The signature matches the stored signing secret, the timestamp is inside the 5-minute window and the body is JSON of the documented shape.',
  },
  diagnosis_missing_header: {
    zh: (p) => `缺少请求头：${s(p.missing)}。服务的每次投递都带有这些头；这个请求可能不是服务发出的，或者被代理删掉了。`,
    en: (p) =>
      `Missing header: ${s(p.missing)}. Every delivery from the service carries them; this request did not come from the service, or a proxy removed them.`,
  },
  diagnosis_unknown_event: {
    zh: (p) => `X-Service-Event 的值 "${s(p.event)}" 不是 image_pack.published 或 ping。`,
    en: (p) => `X-Service-Event is "${s(p.event)}", which is neither image_pack.published nor ping.`,
  },
  diagnosis_timestamp_invalid: {
    zh: (p) => `X-Service-Timestamp "${s(p.timestamp)}" 不是以秒为单位的 Unix 时间（只能有一个纯数字的值）。`,
    en: (p) => `X-Service-Timestamp "${s(p.timestamp)}" is not Unix time in seconds (a single value of digits only).`,
  },
  diagnosis_timestamp_stale: {
    zh: (p) => `时间戳已过期：比现在早 ${s(p.skew)} 秒，超过 ${s(p.tolerance)} 秒的容差。这是一次重放，或者接收方的时钟不准。签名本身是对的。`,
    en: (p) =>
      `Stale timestamp: ${s(p.skew)} s older than now, beyond the ${s(p.tolerance)} s tolerance. This is a replay, or the receiver's clock is off. The signature itself is correct.`,
  },
  diagnosis_timestamp_future: {
    zh: (p) => `时间戳在未来：比现在晚 ${s(p.skew)} 秒，超过 ${s(p.tolerance)} 秒的容差。检查发送方或本机的时钟。`,
    en: (p) => `Timestamp in the future: ${s(p.skew)} s ahead of now, beyond the ${s(p.tolerance)} s tolerance. Check the sender's or this machine's clock.`,
  },
  diagnosis_no_v1_signature: {
    zh: (p) => `X-Service-Signature 中没有可用的 v1 部分（收到：${p.parts ? s(p.parts) : '空'}）。格式应为 v1= 后跟 64 位十六进制 HMAC-SHA256。`,
    en: (p) =>
      `X-Service-Signature has no usable v1 part (received: ${p.parts ? s(p.parts) : 'empty'}). It must be v1= followed by a 64-digit hex HMAC-SHA256.`,
  },
  // spec §6: a receiver that cannot check the signature must not accept the delivery.
  diagnosis_no_secret: {
    zh: () => '没有存储签名密钥，无法核对签名，因此以 401 拒绝。在本地环境中点击“连接本地服务”，或粘贴密钥后验证。',
    en: () =>
      'No signing secret is stored, so the signature cannot be checked and the delivery was rejected with 401. Click "Connect local service" in the Local environment, or paste the secret to verify.',
  },
  diagnosis_wrong_secret: {
    zh: () => '签名不匹配：用存储的密钥算出的 HMAC 与收到的不同，之前的密钥也都不匹配。发送方用的是另一个密钥（另一个账户或环境）。',
    en: () =>
      'Signature mismatch: the HMAC computed with the stored secret differs from the one received, and no earlier secret matches either. The sender signs with another secret (another account or environment).',
  },
  // A paste has no earlier attempt to compare with: the secret may be right and the bytes changed (D10).
  diagnosis_signature_unexplained: {
    zh: () =>
      '签名不匹配：用这个密钥算出的 HMAC 与收到的不同。可能是发送方用了另一个密钥，也可能是签名之后正文或时间戳被改过；没有原始投递可比对，无法分辨。请粘贴接收方收到的原始字节（不要重新格式化），或在检查器中查看这次投递。',
    en: () =>
      'Signature mismatch: the HMAC computed with this secret differs from the one received. Either the sender used another secret, or the body or the timestamp changed after signing; with no original delivery to compare with, which one cannot be told. Paste the exact bytes your receiver got (not re-formatted), or look the delivery up in the inspector.',
  },
  diagnosis_old_secret: {
    zh: (p) => `签名使用的是旧密钥，它已在 ${time(p.replacedAt, 'zh-CN')} 被“重新生成”替换。重新生成后旧密钥立即失效；请在接收方更新为新密钥。`,
    en: (p) =>
      `Signed with an old secret, replaced by Regenerate at ${time(p.replacedAt, 'en-GB')}. The old secret stops working at once after Regenerate; update the receiver to the new one.`,
  },
  diagnosis_timestamp_changed: {
    zh: (p) =>
      `时间戳被改过：签名对应的是同一投递 ID 之前一次尝试的时间戳 ${s(p.signedAt)}，而不是这次的 X-Service-Timestamp。服务每次重试都会用新时间戳重新签名；这是被篡改的重放。`,
    en: (p) =>
      `The timestamp was changed: the signature belongs to ${s(p.signedAt)}, the timestamp of an earlier attempt of this delivery id, not to this X-Service-Timestamp. The service re-signs every retry with a fresh timestamp; this is a doctored replay.`,
  },
  diagnosis_body_changed: {
    zh: (p) => `正文被改动过：${HOW[s(p.how)]?.zh ?? ''}。签名覆盖原始字节；请用收到的原始正文验证，不要先解析再序列化。`,
    en: (p) =>
      `The body was changed: ${HOW[s(p.how)]?.en ?? ''}. The signature covers the raw bytes; verify the body exactly as received, never a parsed and re-serialised copy.`,
  },
  diagnosis_body_not_json: {
    zh: () => '签名正确，但正文不是合法的 UTF-8 JSON。',
    en: () => 'The signature is correct, but the body is not valid UTF-8 JSON.',
  },
  diagnosis_body_shape: {
    zh: (p) => `签名正确，但正文不符合文档的结构：${s(p.shape)}。`,
    en: (p) => `The signature is correct, but the body is not of the documented shape: ${s(p.shape)}.`,
  },
  diagnosis_too_large: {
    zh: (p) => `正文超过 1 MB（${s(p.bytes)} 字节），已以 413 拒绝，未读取。`,
    en: (p) => `The body is over 1 MB (${s(p.bytes)} bytes); refused with 413 and not read.`,
  },
  diagnosis_wrong_path: {
    zh: (p) => `路径 ${s(p.path)} 不是 /webhooks，已回答 404。`,
    en: (p) => `The path ${s(p.path)} is not /webhooks; answered 404.`,
  },
} satisfies Record<string, Text>;

/** Errors the inspector throws (its IPC methods) or reports (the receiver's state). */
const ERRORS = {
  port_unavailable: {
    zh: (p) => `端口 ${s(p.port)} 无法使用：${s(p.cause)}`,
    en: (p) => `Port ${s(p.port)} cannot be used: ${s(p.cause)}`,
  },
  receiver_port_unavailable: {
    zh: (p) => `端口 ${s(p.port)} 无法使用（${s(p.cause)}）；接收器未运行。`,
    en: (p) => `Port ${s(p.port)} cannot be used (${s(p.cause)}); the receiver is not running.`,
  },
  receiver_stopped: {
    zh: () => '接收器没有运行。',
    en: () => 'The receiver is not running.',
  },
  no_previous_secret: {
    zh: () => '没有已知的旧密钥：只有在“重新生成”替换过密钥之后，才能用旧密钥签名。',
    en: () => 'No earlier secret is known: signing with the previous secret needs a secret that Regenerate replaced.',
  },
  no_secret: {
    zh: () => '没有存储签名密钥：先连接本地服务，或直接填写密钥。',
    en: () => 'No signing secret is stored: connect the local service first, or type the secret.',
  },
  too_large: {
    zh: () => '这个请求的正文超过 1 MB，没有保存，无法重发。',
    en: () => 'This request was over 1 MB and its body was not kept; it cannot be re-sent.',
  },
  local_unavailable: {
    zh: () => '本地服务没有运行；连接只在本地环境中可用。',
    en: () => 'The local service is not running; connecting works in the Local environment only.',
  },
} satisfies Record<string, Text>;

export const INSPECTOR_MESSAGES = { ...DIAGNOSES, ...ERRORS } satisfies Record<string, Text>;
