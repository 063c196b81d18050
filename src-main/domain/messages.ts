// The zh/en catalog of everything the main process says to the user, keyed by a stable code. Errors and the
// notes main stores with a turn keep only the code and its facts; the text is made here when it is read, in
// the language the user has then. Codes of spec §7 that the service answers are rendered in ./errors.ts.
import type { Language } from '../../src-shared/language.ts';
import { BATCH_MESSAGES } from './batch-messages.ts';
import { EXPORT_MESSAGES } from './export-messages.ts';
import { INSPECTOR_MESSAGES } from './inspector-messages.ts';
import { LIBRARY_MESSAGES } from './library-messages.ts';

type Params = Record<string, unknown>;
type Text = { zh: (p: Params) => string; en: (p: Params) => string };

function s(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return value === undefined || value === null ? '' : String(value);
}

function seconds(value: unknown): string {
  return String(Math.max(1, Math.ceil(Number(value) || 0)));
}

function hours(value: unknown): string {
  return String(Math.max(1, Math.ceil((Number(value) || 0) / 3600)));
}

const MB = 1024 * 1024;
function megabytes(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? String(Math.ceil(n / MB)) : '';
}

const WHAT_ZH: Record<string, string> = { image: '图片', session: '会话', turn: '生成记录', request: '请求记录' };

const SPEC_MEANING: Record<string, { zh: string; en: string }> = {
  insufficient_credits: { zh: '积分不足。', en: 'Not enough credits.' },
  rate_limited: { zh: '该密钥已达到 24 小时请求上限。', en: 'This key reached its 24-hour request limit.' },
  new_user_daily_limit: { zh: '新账户的 24 小时消费上限已满。', en: 'The new account’s 24-hour spending cap is reached.' },
  internal_error: { zh: '生成失败，预扣积分已退回。', en: 'The generation failed; the reserved credits were refunded.' },
  auth_unavailable: { zh: '认证服务暂时不可用。', en: 'The authentication service is temporarily unavailable.' },
  invalid_api_key: { zh: 'API 密钥无效、已撤销或已过期。', en: 'The API key is invalid, revoked or expired.' },
  unauthorized: { zh: '请求缺少 API 密钥。', en: 'The request carried no API key.' },
  insufficient_scope: { zh: 'API 密钥缺少所需权限。', en: 'The API key lacks a required scope.' },
  banned: { zh: '账户已被封禁。', en: 'The account is banned.' },
  session_not_found: { zh: '会话不存在或不属于当前账户。', en: 'The session does not exist or is not yours.' },
  not_found: { zh: '未找到。', en: 'Not found.' },
  reference_image_missing: { zh: '有参考图已不可用。', en: 'A reference image is no longer available.' },
};

const CORE = {
  // Anything unexpected; `cause` is for the log and the details, never for decisions.
  internal: {
    zh: (p) => `应用内部出错${p.cause ? `（${s(p.cause)}）` : ''}。没有丢失已保存的数据；请重试，若仍出错请反馈。`,
    en: (p) => `Something went wrong inside the app${p.cause ? ` (${s(p.cause)})` : ''}. Nothing saved was lost; try again, and report it if it keeps happening.`,
  },
  unknown_error: {
    zh: (p) => `服务返回了应用不认识的错误代码 ${s(p.code)}。`,
    en: (p) => `The service answered with an error code the app does not know: ${s(p.code)}.`,
  },
  service_said: {
    zh: (p) => SPEC_MEANING[s(p.code)]?.zh ?? `服务返回错误 ${s(p.code)}。`,
    en: (p) => SPEC_MEANING[s(p.code)]?.en ?? `The service answered ${s(p.code)}.`,
  },
  invalid_input: {
    zh: (p) => `输入无效：${s(p.field)}${p.why ? `：${s(p.why)}` : ''}。未做任何更改。`,
    en: (p) => `Invalid input: ${s(p.field)}${p.why ? `: ${s(p.why)}` : ''}. Nothing was changed.`,
  },
  unknown_method: { zh: (p) => `未知的 IPC 方法 ${s(p.method)}。`, en: (p) => `Unknown IPC method ${s(p.method)}.` },
  disk_full: {
    zh: (p) =>
      `磁盘空间不足，无法写入${p.path ? ` ${s(p.path)}` : '应用数据'}。${megabytes(p.needBytes) ? `至少需要再腾出约 ${megabytes(p.needBytes)} MB，` : '请腾出一些空间，'}然后重试；应用仍可继续使用。`,
    en: (p) =>
      `The disk is full: the app could not write ${p.path ? s(p.path) : 'its data'}. ${megabytes(p.needBytes) ? `Free at least about ${megabytes(p.needBytes)} MB` : 'Free some space'}, then try again; the app keeps working.`,
  },
  service_not_running: {
    zh: (p) => (p.starting ? '本地服务正在启动，请稍候再试。' : `本地服务没有运行${p.cause ? `（${s(p.cause)}）` : ''}。`),
    en: (p) => (p.starting ? 'The local service is starting; try again in a moment.' : `The local service is not running${p.cause ? ` (${s(p.cause)})` : ''}.`),
  },
  console_unavailable: {
    zh: () => '本地服务尚未运行，控制台不可用。',
    en: () => 'The local service is not running, so its console is unavailable.',
  },
  no_base_url: {
    zh: () => '请先在设置中填写远程环境的地址。',
    en: () => 'Enter the Remote environment’s base URL in Settings first.',
  },
  remote_url_not_https: {
    zh: (p) => `远程地址必须使用 https://：${s(p.url)} 会让密钥以明文传输。只有本机地址（localhost、127.0.0.1、[::1]）可以用 http://。未做任何更改。`,
    en: (p) => `Remote addresses must use https://: ${s(p.url)} would send the key in clear text. Plain http:// is allowed only for this computer (localhost, 127.0.0.1, [::1]). Nothing was changed.`,
  },
  key_needs_base_url: {
    zh: () => '请先填写并保存远程地址，再输入它的密钥：密钥只会发送到输入时的地址。',
    en: () => 'Save the Remote base URL first, then enter its key: a key is only ever sent to the address it was entered for.',
  },
  key_origin_mismatch: {
    zh: (p) => `这个密钥是为 ${s(p.keyOrigin)} 输入的，不会发送到 ${s(p.origin)}。请为新地址重新输入密钥。`,
    en: (p) => `This key was entered for ${s(p.keyOrigin)} and is never sent to ${s(p.origin)}. Enter the key for the new address.`,
  },
  no_api_key: {
    zh: () => '该环境还没有 API 密钥，请在设置中填写。',
    en: () => 'This environment has no API key yet; enter one in Settings.',
  },
  local_session_not_found: {
    zh: (p) => `本地会话 ${s(p.sessionId)} 不存在。`,
    en: (p) => `Local session ${s(p.sessionId)} does not exist.`,
  },
  environment_mismatch: {
    zh: (p) =>
      p.imageId ? `图片 ${s(p.imageId)} 不属于本地环境。` : `该会话属于 ${s(p.sessionEnvironment)} 环境，当前是 ${s(p.environment)}。`,
    en: (p) =>
      p.imageId
        ? `Image ${s(p.imageId)} is not from the Local environment.`
        : `That session belongs to the ${s(p.sessionEnvironment)} environment; the current one is ${s(p.environment)}.`,
  },
  turn_not_found: { zh: (p) => `找不到生成记录 ${s(p.turnId)}。`, en: (p) => `No generation ${s(p.turnId)}.` },
  not_found: {
    zh: (p) => `找不到${WHAT_ZH[s(p.what)] ?? s(p.what)} ${s(p.id)}。`,
    en: (p) => `No ${s(p.what)} ${s(p.id)}.`,
  },
  file_not_ready: { zh: () => '该图片尚未下载完成。', en: () => 'This image has not finished downloading.' },
  // A generated image's download went past the size cap (src-main/files/downloader.ts MAX_DOWNLOAD_BYTES).
  download_too_large: {
    zh: (p) =>
      `图片文件超过应用接受的上限（最多 ${megabytes(p.limitBytes)} MB${megabytes(p.declaredBytes) ? `，服务声明为 ${megabytes(p.declaredBytes)} MB` : ''}），已停止下载，未保留任何文件。正常的图片远小于此，服务或网络可能出了问题。`,
    en: (p) =>
      `The image file is larger than the app accepts (${megabytes(p.limitBytes)} MB at most${megabytes(p.declaredBytes) ? `; the service announced ${megabytes(p.declaredBytes)} MB` : ''}); the download was stopped and nothing was kept. A real image is far smaller: the service or the network is misbehaving.`,
  },
  image_not_found: { zh: (p) => `图库中没有图片 ${s(p.imageId)}。`, en: (p) => `No image ${s(p.imageId)} in the library.` },
  link_not_allowed: {
    zh: () => '只能打开应用自己生成的 http(s) 链接。',
    en: () => 'Only http(s) links the app itself made can be opened.',
  },
  service_unreachable: {
    zh: (p) => `无法连接到服务，请求没有发出，也没有扣费。检查网络或服务地址后可以重试。${p.cause ? `（${s(p.cause)}）` : ''}`,
    en: (p) => `The service could not be reached; the request was not sent and nothing was charged. Check the network or the base URL, then retry.${p.cause ? ` (${s(p.cause)})` : ''}`,
  },
  connection_unreachable: {
    zh: (p) => `无法连接到服务：请检查服务地址和网络。${p.cause ? ` (${s(p.cause)})` : ''}`,
    en: (p) => `Could not reach the service: check the base URL and the network.${p.cause ? ` (${s(p.cause)})` : ''}`,
  },
  connection_no_answer: {
    zh: (p) => `服务没有正常回答：连接中断或超时，请稍后再试。${p.cause ? ` (${s(p.cause)})` : ''}`,
    en: (p) => `The service did not answer properly: the connection broke or timed out; try again later.${p.cause ? ` (${s(p.cause)})` : ''}`,
  },
  service_error: {
    zh: (p) => `服务返回了无法识别的回应（HTTP ${s(p.status)}）${p.text ? `：${s(p.text)}` : ''}。`,
    en: (p) => `The service gave an answer the app could not read (HTTP ${s(p.status)})${p.text ? `: ${s(p.text)}` : ''}.`,
  },
  unexpected_response: {
    zh: (p) => `服务的回应无法解析${p.text ? `：${s(p.text)}` : ''}。`,
    en: (p) => `The service’s answer could not be read${p.text ? `: ${s(p.text)}` : ''}.`,
  },
  // spec §7 applied to a turn the user asks to retry (./retry-policy.ts decides; these say why).
  retry_not_allowed: {
    zh: (p) =>
      ({
        running: '该生成仍在进行中。',
        succeeded: '该生成已经成功，无需重试。',
        outcome_unknown: '这次生成的结果未知，服务端可能已经生成并扣费，因此不能自动重发。请先在服务网站查看；如需再次生成，请手动发起新的生成。',
        already_retried: '该生成已经重试过了。',
        fix_request: '同样的请求会得到同样的回答，请先修改请求（见错误说明）。',
      })[s(p.reason)] ?? '该生成不能重试。',
    en: (p) =>
      ({
        running: 'This generation is still running.',
        succeeded: 'This generation succeeded; there is nothing to retry.',
        outcome_unknown:
          'The outcome of this generation is unknown: the service may have produced and charged for it, so it is not resent. Check the service’s website first; to generate again, start a new generation yourself.',
        already_retried: 'This generation was already retried.',
        fix_request: 'The same request gets the same answer; fix the request first (see the error).',
      })[s(p.reason)] ?? 'This generation cannot be retried.',
  },
  retry_too_early: {
    zh: (p) =>
      p.reason === 'new_user_daily_limit'
        ? `新账户的 24 小时消费上限已满，请在 ${hours(p.waitS)} 小时后再试。`
        : `该密钥已达到 24 小时请求上限，请在 ${seconds(p.waitS)} 秒后再试（指数退避，不要立即重试）。`,
    en: (p) =>
      p.reason === 'new_user_daily_limit'
        ? `The new account’s 24-hour spending cap is reached; try again in ${hours(p.waitS)} h.`
        : `This key reached its 24-hour request limit; try again in ${seconds(p.waitS)} s (exponential back-off, never at once).`,
  },
  retry_limit_reached: {
    zh: (p) => `已经重试过一次仍然失败。请停止重试，并带上 request_id ${s(p.requestId)} 反馈问题。`,
    en: (p) => `It failed again after one retry. Stop retrying and report it with request_id ${s(p.requestId)}.`,
  },
  // Notes main keeps with a turn whose outcome the user must know about.
  outcome_unknown: {
    zh: (p) =>
      `${
        {
          timeout: `等待 ${s(p.seconds)} 秒仍未收到服务的回应。`,
          dropped: '等待结果时连接中断了。',
          app_closed: '等待结果时应用被关闭了。',
          unreadable: '服务回应了成功，但回应内容无法解析。',
          crashed: '等待结果时应用意外退出了。',
        }[s(p.why)] ?? ''
      }服务端可能已经完成这次生成并扣除了积分，所以应用没有自动重发（重发可能被扣费两次）。请稍后在服务网站的“最近对话”中查看该会话，确认是否已生成，再决定是否重新生成。`,
    en: (p) =>
      `${
        {
          timeout: `No answer from the service within ${s(p.seconds)} s.`,
          dropped: 'The connection broke while waiting for the result.',
          app_closed: 'The app was closed while waiting for the result.',
          unreadable: 'The service answered with success, but the answer could not be read.',
          crashed: 'The app stopped unexpectedly while waiting for the result.',
        }[s(p.why)] ?? ''
      } The service may still have finished this generation and charged for it, so the app did not send it again (a resend could be paid twice). Check the session under “Recent conversations” on the service’s website after a while, then decide whether to generate again.`,
  },
  reconciled: {
    zh: (p) =>
      p.status === 'succeeded'
        ? `应用曾在等待结果时中断；已从本地服务核对：这次生成已完成，扣除 ${s(p.charged)} 积分，图片已取回。`
        : `应用曾在等待结果时中断；已从本地服务核对：这次生成没有完成，预扣积分已全部退回。`,
    en: (p) =>
      p.status === 'succeeded'
        ? `The app was interrupted while waiting; checked with the local service: this generation finished, ${s(p.charged)} credits were charged and its images were fetched.`
        : 'The app was interrupted while waiting; checked with the local service: this generation did not finish and its reservation was refunded in full.',
  },
  not_on_service: {
    zh: () => '应用曾在等待结果时中断；本地服务没有这次生成的记录，请求没有送达，也没有扣费。可以放心重试。',
    en: () => 'The app was interrupted while waiting; the local service has no record of this generation, so it never arrived and nothing was charged. It is safe to retry.',
  },
  cancelled_waiting: {
    zh: () => '已中止连接。请求已经发出，服务端仍可能完成这次生成并扣费；生成的图片不会自动出现在这里，可在服务网站的“最近对话”中查看。',
    en: () =>
      'You aborted the connection. The request was already sent, so the service may still finish the run and charge for it; its images will not appear here automatically. Check “Recent conversations” on the service’s website.',
  },
  cancelled_before_resend: {
    zh: () => '已在等待重试时取消。认证服务当时不可用，服务端没有运行这次生成，也没有扣费。',
    en: () => 'Cancelled while waiting to retry. The authentication service was unavailable, so the service ran nothing and charged nothing.',
  },
  /** A note written as text by an earlier version of the app. */
  legacy_note: { zh: (p) => s(p.text), en: (p) => s(p.text) },
  // Desktop notifications when a run ends while the window is in the background.
  notify_done_title: { zh: () => '生成完成', en: () => 'Generation finished' },
  notify_done_body: { zh: (p) => `已生成 ${s(p.count)} 张图片。`, en: (p) => `${s(p.count)} image(s) ready.` },
  notify_failed_title: { zh: () => '生成未完成', en: () => 'Generation did not finish' },
  notify_failed_body: { zh: () => '打开应用查看原因。', en: () => 'Open the app to see why.' },
} satisfies Record<string, Text>;

const CATALOG = { ...CORE, ...INSPECTOR_MESSAGES, ...EXPORT_MESSAGES, ...LIBRARY_MESSAGES, ...BATCH_MESSAGES } satisfies Record<string, Text>;

export type MainCode = keyof typeof CATALOG;

export function isMainCode(code: string): code is MainCode {
  return Object.hasOwn(CATALOG, code);
}

export function mainMessage(code: MainCode, params: Params, language: Language): string {
  return CATALOG[code][language](params);
}

/** A note main stores with a turn: a code of this catalog and its facts. */
export interface StoredNote {
  code: MainCode;
  params?: Params;
}

export function renderNote(note: StoredNote, language: Language): string {
  return mainMessage(note.code, note.params ?? {}, language);
}
