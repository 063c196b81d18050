// Texts main writes into turns for the user, in zh and en (spec §7 retry guidance, issue 4 §3).
import type { Bilingual } from './errors.ts';

export function outcomeUnknownNote(kind: 'timeout' | 'dropped' | 'app_closed' | 'unreadable', seconds: number): Bilingual {
  const why =
    kind === 'unreadable'
      ? { zh: '服务回应了成功，但回应内容无法解析。', en: 'The service answered with success, but the answer could not be read.' }
      : kind === 'timeout'
      ? { zh: `等待 ${seconds} 秒仍未收到服务的回应。`, en: `No answer from the service within ${seconds} s.` }
      : kind === 'dropped'
        ? { zh: '等待结果时连接中断了。', en: 'The connection broke while waiting for the result.' }
        : { zh: '等待结果时应用被关闭了。', en: 'The app was closed while waiting for the result.' };
  return {
    zh: `${why.zh}服务端可能已经完成这次生成并扣除了积分，所以应用没有自动重发（重发可能被扣费两次）。请稍后在服务网站的“最近对话”中查看该会话，确认是否已生成，再决定是否重新生成。`,
    en: `${why.en} The service may still have finished this generation and charged for it, so the app did not send it again (a resend could be paid twice). Check the session under “Recent conversations” on the service’s website after a while, then decide whether to generate again.`,
  };
}

export const CANCELLED_NOTE: Bilingual = {
  zh: '已取消等待。请求已经发出，服务端仍可能完成这次生成并扣费；生成的图片不会自动出现在这里，可在服务网站的“最近对话”中查看。',
  en: 'You stopped waiting. The request was already sent, so the service may still finish the run and charge for it; its images will not appear here automatically. Check “Recent conversations” on the service’s website.',
};

/** Cancelled while waiting to resend after 503: the service ran nothing, so nothing was charged. */
export const CANCELLED_BEFORE_RESEND_NOTE: Bilingual = {
  zh: '已在等待重试时取消。认证服务当时不可用，服务端没有运行这次生成，也没有扣费。',
  en: 'Cancelled while waiting to retry. The authentication service was unavailable, so the service ran nothing and charged nothing.',
};

export const UNREACHABLE_ERROR: Bilingual = {
  zh: '无法连接到服务，请求没有发出，也没有扣费。检查网络或服务地址后可以重试。',
  en: 'The service could not be reached; the request was not sent and nothing was charged. Check the network or the base URL, then retry.',
};

export function notifyDone(ok: boolean, images: number): { title: Bilingual; body: Bilingual } {
  return ok
    ? { title: { zh: '生成完成', en: 'Generation finished' }, body: { zh: `已生成 ${images} 张图片。`, en: `${images} image(s) ready.` } }
    : { title: { zh: '生成未完成', en: 'Generation did not finish' }, body: { zh: '打开应用查看原因。', en: 'Open the app to see why.' } };
}
