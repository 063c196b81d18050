// spec §5 and §7: every error code, its HTTP status, the retry guidance and the client action, and the
// zh/en messages that carry the facts DESIGN.md §3 requires. Clients branch on `code`, never on messages.
import type { Language } from './language.ts';

export type RetryGuidance =
  /** 400/401/402/403/404: the same request gets the same answer; fix it first. */
  | 'do_not_retry'
  /** 429 rate_limited: rolling 24-hour window; exponential back-off, never at once. */
  | 'back_off_exponentially'
  /** 429 new_user_daily_limit: come back the next day. */
  | 'next_day'
  /** 500: the refund has happened; retry once as is, then stop and report. */
  | 'retry_once'
  /** 503: retry after a few seconds. */
  | 'retry_after_seconds';

export type ClientAction =
  | 'fix_request'
  | 'add_authorization'
  | 'create_new_key'
  | 'top_up'
  | 'use_key_with_scope'
  | 'contact_support'
  | 'omit_or_own_session'
  | 'none'
  | 'wait_for_window'
  | 'come_back_tomorrow'
  | 'retry_once_then_report'
  | 'retry_in_seconds';

export interface ErrorSpec {
  status: number;
  retry: RetryGuidance;
  action: ClientAction;
}

const invalid: ErrorSpec = { status: 400, retry: 'do_not_retry', action: 'fix_request' };

/** spec §7's status and code table, the 400 sub-codes, and the codes DESIGN.md adds (admin, routing). */
export const ERROR_CODES = {
  invalid_request: invalid,
  prompt_too_long: invalid,
  invalid_model: invalid,
  invalid_ratio: invalid,
  invalid_resolution: invalid,
  invalid_quality: invalid,
  invalid_image_count: invalid,
  invalid_reference_images: invalid,
  too_many_reference_images: invalid,
  reference_image_missing: invalid,
  prompt_or_reference_required: invalid,
  unauthorized: { status: 401, retry: 'do_not_retry', action: 'add_authorization' },
  invalid_api_key: { status: 401, retry: 'do_not_retry', action: 'create_new_key' },
  insufficient_credits: { status: 402, retry: 'do_not_retry', action: 'top_up' },
  insufficient_scope: { status: 403, retry: 'do_not_retry', action: 'use_key_with_scope' },
  banned: { status: 403, retry: 'do_not_retry', action: 'contact_support' },
  session_not_found: { status: 404, retry: 'do_not_retry', action: 'omit_or_own_session' },
  not_found: { status: 404, retry: 'do_not_retry', action: 'none' },
  rate_limited: { status: 429, retry: 'back_off_exponentially', action: 'wait_for_window' },
  new_user_daily_limit: { status: 429, retry: 'next_day', action: 'come_back_tomorrow' },
  internal_error: { status: 500, retry: 'retry_once', action: 'retry_once_then_report' },
  auth_unavailable: { status: 503, retry: 'retry_after_seconds', action: 'retry_in_seconds' },
  // Not in spec §7's table; used by the local service for routing and its admin API (DESIGN.md §4).
  method_not_allowed: { status: 405, retry: 'do_not_retry', action: 'fix_request' },
  payload_too_large: { status: 413, retry: 'do_not_retry', action: 'fix_request' },
  invalid_webhook_url: invalid,
  publish_rejected: { status: 409, retry: 'do_not_retry', action: 'fix_request' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The codes spec §7 lists for the public API (its status table and the 400 sub-codes). */
export const SPEC_ERROR_CODES = ALL_ERROR_CODES.filter(
  (c) => !['method_not_allowed', 'payload_too_large', 'invalid_webhook_url', 'publish_rejected'].includes(c),
);

/** The 400 sub-codes of POST /api/v1/generate (spec §7). */
export const GENERATE_400_CODES = [
  'invalid_request',
  'prompt_too_long',
  'invalid_model',
  'invalid_ratio',
  'invalid_resolution',
  'invalid_quality',
  'invalid_image_count',
  'invalid_reference_images',
  'too_many_reference_images',
  'reference_image_missing',
  'prompt_or_reference_required',
] as const satisfies readonly ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

export type ErrorParams = Record<string, string | number | boolean | readonly string[] | undefined>;

/** An error as a value: what validation returns and what the service turns into a spec §7 body. */
export interface ApiErrorValue {
  code: ErrorCode;
  status: number;
  params: ErrorParams;
}

export function apiError(code: ErrorCode, params: ErrorParams = {}): ApiErrorValue {
  return { code, status: ERROR_CODES[code].status, params };
}

/** spec §7: the JSON body of every failure under /api/v1. */
export interface ErrorBody {
  error: { code: string; message: string; request_id: string; reason?: string };
}

function list(value: ErrorParams[string]): string {
  if (Array.isArray(value)) return value.join(', ');
  return String(value ?? '');
}

type MessageFn = (p: ErrorParams) => string;

const FIELD_REASON_EN: Record<string, string> = {
  not_json: 'The body is not valid JSON.',
  not_object: 'The body must be a JSON object.',
  missing_prompt_and_references: 'Give a prompt, reference images, or both.',
  wrong_type: 'has the wrong type',
  unknown_field: 'is not a known field',
  unknown_value: 'has a value that is not allowed',
  edit_only_needs_reference: 'is an edit-only model and needs at least one reference image.',
};

const MESSAGES: Record<ErrorCode, { zh: MessageFn; en: MessageFn }> = {
  invalid_request: {
    zh: (p) => {
      if (p.reason === 'not_json') return '请求体不是合法的 JSON。';
      if (p.reason === 'not_object') return '请求体必须是 JSON 对象。';
      if (p.reason === 'missing_prompt_and_references') return '请提供 prompt 或 ref_image_ids（或两者）。';
      if (p.reason === 'unknown_field') return `未知字段：${list(p.field)}。请检查拼写；服务不会忽略错误参数。`;
      if (p.reason === 'wrong_type') return `字段 ${list(p.field)} 的类型不正确${p.expected ? `，应为 ${list(p.expected)}` : ''}。`;
      if (p.reason === 'unknown_value') return `字段 ${list(p.field)} 的取值不被允许${p.allowed ? `，可选值：${list(p.allowed)}` : ''}。`;
      if (p.reason === 'edit_only_needs_reference') return `${list(p.model)} 仅支持编辑，至少需要一张参考图。`;
      return `请求无效${p.detail ? `：${list(p.detail_zh ?? p.detail)}` : ''}。`;
    },
    en: (p) => {
      if (p.reason === 'not_json' || p.reason === 'not_object' || p.reason === 'missing_prompt_and_references')
        return FIELD_REASON_EN[p.reason] ?? 'Invalid request.';
      if (p.reason === 'unknown_field') return `Unknown field: ${list(p.field)}. Check its spelling; the service never ignores a bad parameter.`;
      if (p.reason === 'wrong_type') return `Field ${list(p.field)} has the wrong type${p.expected ? `; expected ${list(p.expected)}` : ''}.`;
      if (p.reason === 'unknown_value') return `Field ${list(p.field)} has a value that is not allowed${p.allowed ? `; allowed: ${list(p.allowed)}` : ''}.`;
      if (p.reason === 'edit_only_needs_reference') return `${list(p.model)} is edit only and needs at least one reference image.`;
      return `Invalid request${p.detail ? `: ${list(p.detail)}` : ''}.`;
    },
  },
  prompt_too_long: {
    zh: (p) => `prompt 过长：${list(p.length)} 个字符，上限 ${list(p.limit)}。`,
    en: (p) => `The prompt is too long: ${list(p.length)} characters, limit ${list(p.limit)}.`,
  },
  invalid_model: {
    zh: (p) => `未知模型 ${list(p.model)}。可选：${list(p.allowed)}。`,
    en: (p) => `Unknown model ${list(p.model)}. Allowed: ${list(p.allowed)}.`,
  },
  invalid_ratio: {
    zh: (p) => `比例 ${list(p.ratio)} 无效或 ${list(p.model)} 不支持。可选：${list(p.allowed)}。`,
    en: (p) => `Ratio ${list(p.ratio)} is invalid or not supported by ${list(p.model)}. Allowed: ${list(p.allowed)}.`,
  },
  invalid_resolution: {
    zh: (p) => `分辨率 ${list(p.resolution)} 无效或 ${list(p.model)} 不支持。可选：${list(p.allowed)}。`,
    en: (p) => `Resolution ${list(p.resolution)} is invalid or not offered by ${list(p.model)}. Allowed: ${list(p.allowed)}.`,
  },
  invalid_quality: {
    zh: (p) => `质量 ${list(p.quality)} 无效。可选：${list(p.allowed)}。`,
    en: (p) => `Quality ${list(p.quality)} is invalid. Allowed: ${list(p.allowed)}.`,
  },
  invalid_image_count: {
    zh: (p) => `张数 n=${list(p.n)} 无效，只能是数字 ${list(p.allowed)}。`,
    en: (p) => `Image count n=${list(p.n)} is invalid; it must be the number ${list(p.allowed)}.`,
  },
  invalid_reference_images: {
    zh: () => 'ref_image_ids 必须是字符串数组。',
    en: () => 'ref_image_ids must be an array of strings.',
  },
  too_many_reference_images: {
    zh: (p) => `参考图过多：${list(p.count)} 张，${list(p.model)} 最多 ${list(p.limit)} 张。`,
    en: (p) => `Too many reference images: ${list(p.count)}; ${list(p.model)} takes at most ${list(p.limit)}.`,
  },
  reference_image_missing: {
    zh: (p) => `参考图 ${list(p.image_id)} 已不可用（已删除或已清理）。`,
    en: (p) => `Reference image ${list(p.image_id)} is no longer available (deleted or cleaned up).`,
  },
  prompt_or_reference_required: {
    zh: () => 'prompt 与参考图不能同时为空。',
    en: () => 'The prompt and the reference images cannot both be empty.',
  },
  unauthorized: {
    zh: () => '缺少 Authorization 请求头（Bearer <API_KEY>）。',
    en: () => 'Missing Authorization header (Bearer <API_KEY>).',
  },
  invalid_api_key: {
    zh: (p) =>
      p.reason === 'revoked' ? 'API 密钥已被撤销，请新建一个密钥。' : p.reason === 'expired' ? 'API 密钥已过期，请新建一个密钥。' : 'API 密钥无效（不存在），请检查或新建一个密钥。',
    en: (p) =>
      p.reason === 'revoked' ? 'The API key has been revoked; create a new key.' : p.reason === 'expired' ? 'The API key has expired; create a new key.' : 'The API key is invalid (unknown); check it or create a new key.',
  },
  insufficient_credits: {
    zh: (p) => `积分不足：本次需要 ${list(p.needed)}，可用余额 ${list(p.balance)}。请在网站的账户页充值后重试。`,
    en: (p) => `Not enough credits: this request needs ${list(p.needed)}, available balance is ${list(p.balance)}. Top up on the website's account page and try again.`,
  },
  insufficient_scope: {
    zh: (p) => `API 密钥缺少权限 ${list(p.scope)}。`,
    en: (p) => `The API key lacks the scope ${list(p.scope)}.`,
  },
  banned: { zh: () => '账户已被封禁，请联系客服。', en: () => 'The account is banned; contact support.' },
  session_not_found: {
    zh: (p) => `会话 ${list(p.session_id)} 不存在或不属于当前账户。`,
    en: (p) => `Session ${list(p.session_id)} does not exist or is not yours.`,
  },
  // `route`: no route answers this method and path (not a record someone else owns); `admin`: a record of the admin
  // API, which no account owns.
  not_found: {
    zh: (p) =>
      p.route ? `没有这个路由：${list(p.route)}。` : p.what ? `${list(p.what_zh ?? p.what)} 不存在${p.admin ? '' : '或不属于当前账户'}。` : '未找到。',
    en: (p) => (p.route ? `No such route: ${list(p.route)}.` : p.what ? `${list(p.what)} does not exist${p.admin ? '' : ' or is not yours'}.` : 'Not found.'),
  },
  rate_limited: {
    zh: (p) => `该密钥已超过 24 小时内 ${list(p.limit)} 次请求的限制，请在 ${list(p.retry_after_s)} 秒后重试，并使用指数退避。`,
    en: (p) => `This key is over its limit of ${list(p.limit)} requests per 24 hours; retry in ${list(p.retry_after_s)} s and back off exponentially.`,
  },
  new_user_daily_limit: {
    zh: (p) => `新账户 24 小时内最多消费 ${list(p.limit)} 积分（已用 ${list(p.spent)}，本次需要 ${list(p.needed)}），请明天再来。`,
    en: (p) => `New accounts can spend at most ${list(p.limit)} credits in 24 hours (spent ${list(p.spent)}, this request needs ${list(p.needed)}); come back tomorrow.`,
  },
  internal_error: {
    zh: () => '生成失败或服务器错误，预扣积分已退回。可原样重试一次；仍失败请带上 request_id 反馈。',
    en: () => 'Generation failed or server error; the reserved credits were refunded. Retry once as is; if it fails again, report it with the request_id.',
  },
  auth_unavailable: {
    zh: () => '认证服务暂时不可用，请几秒后重试。',
    en: () => 'The authentication service is temporarily unavailable; retry in a few seconds.',
  },
  method_not_allowed: {
    zh: (p) => `${list(p.path)} 不支持 ${list(p.method)} 方法。`,
    en: (p) => `${list(p.method)} is not allowed on ${list(p.path)}.`,
  },
  payload_too_large: {
    zh: (p) => `请求体过大，上限 ${list(p.limit)} 字节。`,
    en: (p) => `The request body is too large; the limit is ${list(p.limit)} bytes.`,
  },
  invalid_webhook_url: {
    zh: (p) => `通知地址不符合规则（${list(p.rule)}）：${list(p.detail_zh ?? p.detail)}。`,
    en: (p) => `The notification URL breaks a rule (${list(p.rule)}): ${list(p.detail)}`,
  },
  publish_rejected: {
    zh: (p) => `发布被拒绝：${p.reason === 'unsaved_changes' ? '有未保存的草稿修改' : p.reason === 'missing_images' ? '有图片已被删除' : '图包为空'}。`,
    en: (p) => `Publish rejected: ${p.reason === 'unsaved_changes' ? 'the pack has unsaved draft changes' : p.reason === 'missing_images' ? 'an image of the pack was deleted' : 'the pack is empty'}.`,
  },
};

export function errorMessage(code: ErrorCode, params: ErrorParams, language: Language): string {
  return MESSAGES[code][language](params);
}

export function errorSpec(code: string): ErrorSpec | null {
  return isErrorCode(code) ? ERROR_CODES[code] : null;
}
