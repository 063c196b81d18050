// Catalog production's part of the main catalog (./messages.ts merges it): products, shot lists, batch runs and
// their pauses, marketplace export, in zh and en. Facts travel as params; the text is made when it is read.
// A leaf of the catalog: it imports no other message (a pause's cause arrives rendered, as the `cause` param).

type Params = Record<string, unknown>;
type Text = { zh: (p: Params) => string; en: (p: Params) => string };

function s(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return value === undefined || value === null ? '' : String(value);
}

/** A time as the UI shows it (main runs on the user's machine, so its clock is theirs): the date too when not today. */
function clock(value: unknown, language: 'zh' | 'en'): string {
  const at = new Date(Number(value));
  const sameDay = at.toDateString() === new Date().toDateString();
  const locale = language === 'zh' ? 'zh-CN' : 'en-US';
  return at.toLocaleString(locale, { ...(sameDay ? {} : { month: 'short', day: 'numeric' }), hour: '2-digit', minute: '2-digit' });
}

/** Why a batch job cannot be retried by hand (retry-policy.ts `jobRetryVerdict`), one sentence per reason. */
function retryRefusal(p: Params, language: 'zh' | 'en'): string {
  const zh = language === 'zh';
  switch (p.reason) {
    case 'in_progress':
      return zh ? '该任务还在排队或运行中。' : 'This job is still queued or running.';
    case 'succeeded':
      return zh ? '该任务已完成；要换一张，请重拍这个镜头。' : 'This job is done; to get another image, re-shoot the cell.';
    case 'replaced':
      return zh ? '该任务已经重试过；请看它的重试任务。' : 'This job was already retried; see its retry.';
    case 'over_budget':
      return zh ? '该任务因超出预算没有发送：提高预算后会继续发送。' : 'This job was not sent because of the budget: raise the budget and it is sent.';
    case 'not_sent':
      return zh ? '该任务没有发送（批次被取消）：“只补缺失的”会发送它。' : 'This job was never sent (the batch was cancelled): “Only what is missing” sends it.';
    case 'may_pay_twice':
      return zh
        ? '结果未知：服务可能已经生成并扣费，再次发送可能重复付费。本地服务会在启动时核对；远程请先在服务网站的最近记录中查看，没有图片再重拍这个镜头。'
        : 'Its outcome is unknown: the service may have run and charged it, so sending it again may pay twice. Local checks with the service at start; on Remote, look in the service’s recent conversations first, and re-shoot the cell only if it has no image.';
    case 'fix_request':
      return zh ? `服务对同样的请求会给出同样的回答（${s(p.code)}）：请先修改商品或镜头，再重拍。` : `The service gives the same answer to the same request (${s(p.code)}): change the product or the shot, then re-shoot.`;
    case 'top_up':
      return zh ? '积分不足（402）：请先充值，然后点“继续”。' : 'Not enough credits (402): top up first, then Resume.';
    case 'key':
      return zh ? `密钥或账户被拒绝（${s(p.code)}）：请先在设置中更换密钥。` : `The key or the account was refused (${s(p.code)}): change the key in Settings first.`;
    case 'free_space':
      return zh ? '服务已生成并扣费，但磁盘已满：腾出空间后图片会自动取回，无需重发。' : 'The service ran and charged it, but the disk was full: free some space and the images arrive by themselves; no need to send it again.';
    case 'too_early':
      return zh ? `服务要求等待（429）：${clock(p.retryAt, 'zh')} 之后才能重试。` : `The service asked us to wait (429): retry after ${clock(p.retryAt, 'en')}.`;
    case 'limit_reached':
      return zh
        ? `这次手动重试也失败了（500）。请带上请求 ID ${s(p.requestId)} 报告问题，或修改提示词重拍。`
        : `The retry by hand failed too (500). Report it with request id ${s(p.requestId)}, or re-shoot the cell with a tweak.`;
    default:
      return zh ? '现在不能重试该任务。' : 'This job cannot be retried now.';
  }
}

/** The encodings a refused product file is recognised in (src-shared/ipc/batch.ts CSV_FOREIGN_ENCODINGS), with their language. */
const FOREIGN_ENCODINGS: Record<'zh' | 'en', Record<string, string>> = {
  zh: { shift_jis: 'Shift-JIS（日文）', 'euc-jp': 'EUC-JP（日文）', 'euc-kr': 'EUC-KR（韩文）', big5: 'Big5（繁体中文）' },
  en: { shift_jis: 'Shift-JIS (Japanese)', 'euc-jp': 'EUC-JP (Japanese)', 'euc-kr': 'EUC-KR (Korean)', big5: 'Big5 (Traditional Chinese)' },
};

export const BATCH_MESSAGES = {
  product_not_found: {
    zh: (p) => `商品 ${s(p.productId)} 不存在（可能已被删除）。未做任何更改。`,
    en: (p) => `There is no product ${s(p.productId)} (it may have been deleted). Nothing was changed.`,
  },
  product_sku_taken: {
    zh: (p) => `SKU“${s(p.sku)}”已被商品“${s(p.name)}”使用。SKU 必须唯一。未做任何更改。`,
    en: (p) => `The SKU “${s(p.sku)}” is already used by “${s(p.name)}”. SKUs must be unique. Nothing was changed.`,
  },
  product_reference_unknown: {
    zh: (p) => `参考图 ${s(p.imageIds)} 不在图库中（只能使用本账户生成的图片，spec §4.1）。未做任何更改。`,
    en: (p) => `Reference image(s) ${s(p.imageIds)} are not in the library (only images this account generated can be references). Nothing was changed.`,
  },
  product_csv_invalid: {
    zh: (p) => `CSV 文件有 ${s(p.count)} 处问题，第一处在第 ${s(p.line)} 行第 ${s(p.column)} 列。文件修正之前不会导入任何商品。`,
    en: (p) => `The CSV file has ${s(p.count)} problem(s); the first is on line ${s(p.line)}, column ${s(p.column)}. Nothing is imported until the file is clean.`,
  },
  product_csv_encoding: {
    zh: (p) =>
      p.looksLike
        ? `这个文件看起来是 ${FOREIGN_ENCODINGS.zh[String(p.looksLike)] ?? s(p.looksLike)}，导入只读 UTF-8、UTF-16（Excel 的“Unicode 文本”）和 GB18030/GBK（中文 Windows 上 Excel、WPS 保存的 CSV）。请在表格软件中另存为“CSV UTF-8”后再导入。未导入任何商品。`
        : '无法把这个文件读成文本：它既不是 UTF-8，也不是 UTF-16（Excel 的“Unicode 文本”）或 GB18030/GBK（中文 Windows 上 Excel、WPS 保存的 CSV）。请在表格软件中另存为“CSV UTF-8”或“CSV（逗号分隔）”后再导入。未导入任何商品。',
    en: (p) =>
      p.looksLike
        ? `This file looks like ${FOREIGN_ENCODINGS.en[String(p.looksLike)] ?? s(p.looksLike)}, which the import does not read: it reads UTF-8, UTF-16 (Excel’s “Unicode text”) and GB18030/GBK (a CSV saved by Excel or WPS on Chinese Windows). Save it from the spreadsheet as “CSV UTF-8” and import it again. Nothing was imported.`
        : 'This file could not be read as text: it is not UTF-8, UTF-16 (Excel’s “Unicode text”) or GB18030/GBK (a CSV saved by Excel or WPS on Chinese Windows). Save it from the spreadsheet as “CSV UTF-8” and import it again. Nothing was imported.',
  },
  shot_list_not_found: {
    zh: (p) => `拍摄清单 ${s(p.id)} 不存在（可能已被删除）。`,
    en: (p) => `There is no shot list ${s(p.id)} (it may have been deleted).`,
  },
  shot_list_builtin: {
    zh: () => '内置清单不能删除；可以用“恢复默认”撤销修改。',
    en: () => 'A built-in list cannot be deleted; “Reset” undoes your changes to it.',
  },
  shot_not_supported: {
    zh: (p) =>
      `镜头“${s(p.shot)}”：${s(p.model)} ${p.reason === 'quality' ? '不支持质量设置（会被忽略）' : `不支持${p.reason === 'ratio' ? '画面比例' : '分辨率'} ${s(p.value)}`}${Array.isArray(p.allowed) && p.allowed.length > 0 ? `（可选：${s(p.allowed)}）` : ''}。清单未保存。`,
    en: (p) =>
      `Shot “${s(p.shot)}”: ${s(p.model)} ${p.reason === 'quality' ? 'has no quality setting (it would be ignored)' : `does not offer the ${p.reason === 'ratio' ? 'ratio' : 'resolution'} ${s(p.value)}`}${Array.isArray(p.allowed) && p.allowed.length > 0 ? ` (it offers ${s(p.allowed)})` : ''}. The list was not saved.`,
  },
  shot_name_taken: {
    zh: (p) => `清单中已有名为“${s(p.name)}”的镜头（不区分大小写）。镜头名称用于导出文件名，必须唯一。清单未保存。`,
    en: (p) => `The list already has a shot named “${s(p.name)}” (case-insensitive). Shot names go into export file names and must be unique. The list was not saved.`,
  },
  batch_plan_empty: {
    zh: () => '计划中没有可发送的任务：请选择商品，并查看下方列出的问题。',
    en: () => 'The plan has no job that can be sent: choose products and see the problems listed.',
  },
  batch_plan_changed: {
    zh: (p) => `计划已变化：总价现在是 ${s(p.total)} 积分（您看到的是 ${s(p.expected)}）。请确认新的计划后再开始。`,
    en: (p) => `The plan changed: it now costs ${s(p.total)} credits (you saw ${s(p.expected)}). Check the new plan, then start again.`,
  },
  batch_name: {
    zh: (p) => `${s(p.list)} × ${s(p.products)} 个商品`,
    en: (p) => `${s(p.list)} × ${s(p.products)} product${Number(p.products) === 1 ? '' : 's'}`,
  },
  export_preset_unknown: {
    zh: (p) => `没有导出预设 ${s(p.presetId)}。可用：${s(p.allowed)}。`,
    en: (p) => `There is no export preset ${s(p.presetId)}. Available: ${s(p.allowed)}.`,
  },
  batch_not_found: {
    zh: (p) => `批次 ${s(p.batchId)} 不存在。`,
    en: (p) => `There is no batch ${s(p.batchId)}.`,
  },
  batch_not_running: {
    zh: () => '该批次没有在运行，无需暂停。',
    en: () => 'This batch is not running; there is nothing to pause.',
  },
  batch_finished: {
    zh: (p) => (p.state === 'cancelled' ? '该批次已取消，不能继续。' : '该批次已完成。'),
    en: (p) => (p.state === 'cancelled' ? 'This batch was cancelled; it cannot go on.' : 'This batch has finished.'),
  },
  batch_waiting: {
    zh: (p) => `服务要求等待（429）：${clock(p.until, 'zh')} 之前不会发送任何任务。`,
    en: (p) => `The service asked us to wait (429): no job is sent before ${clock(p.until, 'en')}.`,
  },
  batch_job_withdrawn: {
    zh: () => '该任务在发送前被取消或暂停，没有发送。',
    en: () => 'The job was cancelled or paused before it was sent; nothing was sent.',
  },
  batch_other_environment: {
    zh: (p) => `该批次是在“${p.environment === 'local' ? '本地' : '远程'}”环境创建的；请切换回该环境后再继续。`,
    en: (p) => `This batch was made on ${p.environment === 'local' ? 'Local' : 'Remote'}; switch back to it to go on.`,
  },
  batch_job_not_found: {
    zh: (p) => `该批次中没有任务 ${s(p.jobId)}。未做任何更改。`,
    en: (p) => `This batch has no job ${s(p.jobId)}. Nothing was changed.`,
  },
  batch_cell_not_found: {
    zh: (p) => `该批次中没有这个商品的镜头“${s(p.shot)}”。未做任何更改。`,
    en: (p) => `This batch has no shot “${s(p.shot)}” for that product. Nothing was changed.`,
  },
  batch_cell_busy: {
    zh: (p) => `${s(p.sku)} 的“${s(p.shot)}”还有任务在排队或运行中；等它结束后再重拍。未做任何更改。`,
    en: (p) => `${s(p.sku)} · ${s(p.shot)} still has a job queued or running; re-shoot it once that ends. Nothing was changed.`,
  },
  batch_pick_not_candidate: {
    zh: (p) => `图片 ${s(p.imageId)} 不是 ${s(p.sku)} 的“${s(p.shot)}”的候选图，不能选用。未做任何更改。`,
    en: (p) => `Image ${s(p.imageId)} is not a candidate of ${s(p.sku)} · ${s(p.shot)}, so it cannot be its pick. Nothing was changed.`,
  },
  batch_pick_rejected: {
    zh: (p) => `图片 ${s(p.imageId)} 已被淘汰（X），不能作为 ${s(p.sku)} 的“${s(p.shot)}”的选用图；先取消淘汰。未做任何更改。`,
    en: (p) => `Image ${s(p.imageId)} is rejected (X), so it cannot be the pick of ${s(p.sku)} · ${s(p.shot)}; unreject it first. Nothing was changed.`,
  },
  batch_master_not_candidate: {
    zh: (p) => `图片 ${s(p.imageId)} 不是该商品在本批次中的候选图，不能作为它的主参考图。未做任何更改。`,
    en: (p) => `Image ${s(p.imageId)} is not one of this product's candidates in the batch, so it cannot be its master reference. Nothing was changed.`,
  },
  batch_master_rejected: {
    zh: (p) => `图片 ${s(p.imageId)} 已被淘汰（X），不能作为 ${s(p.sku)} 的主参考图；先取消淘汰。未做任何更改。`,
    en: (p) => `Image ${s(p.imageId)} is rejected (X), so it cannot be the master reference of ${s(p.sku)}; unreject it first. Nothing was changed.`,
  },
  batch_master_unusable: {
    zh: (p) =>
      p.reason === 'too_many_reference_images'
        ? `${s(p.sku)} 的“${s(p.shot)}”使用 ${s(p.model)}，最多 ${s(p.limit)} 张参考图；加上主参考图是 ${s(p.count)} 张，不能使用。未做任何更改。`
        : `${s(p.sku)} 的“${s(p.shot)}”（${s(p.model)}）不能使用这张主参考图（${s(p.reason)}）。未做任何更改。`,
    en: (p) =>
      p.reason === 'too_many_reference_images'
        ? `${s(p.sku)} · ${s(p.shot)} uses ${s(p.model)}, which takes at most ${s(p.limit)} reference images; with the master it would be ${s(p.count)}, so it cannot be used. Nothing was changed.`
        : `${s(p.sku)} · ${s(p.shot)} (${s(p.model)}) cannot use this master reference (${s(p.reason)}). Nothing was changed.`,
  },
  batch_over_budget: {
    zh: (p) => `超出预算：这次需要 ${s(p.price)} 积分，预算只剩 ${s(p.left)}（预算 ${s(p.budget)}）。请先提高预算。未做任何更改。`,
    en: (p) => `Over budget: this costs ${s(p.price)} credits and the budget has ${s(p.left)} left (budget ${s(p.budget)}). Raise the budget first. Nothing was changed.`,
  },
  batch_budget_below_spent: {
    zh: (p) => `预算不能低于已花费和已占用的 ${s(p.committed)} 积分（已扣 ${s(p.spent)}）。预算未更改。`,
    en: (p) => `The budget cannot be below the ${s(p.committed)} credits already spent or committed (${s(p.spent)} charged). The budget was not changed.`,
  },
  batch_retry_refused: {
    zh: (p) => retryRefusal(p, 'zh'),
    en: (p) => retryRefusal(p, 'en'),
  },
  batch_paused_user: { zh: () => '已暂停。正在运行的任务会完成。', en: () => 'Paused. Jobs already running finish.' },
  batch_paused_rate_limited: {
    zh: (p) => `服务返回 429（请求频率上限）：整个批次暂停，将于 ${clock(p.until, 'zh')} 自动继续。等待期间不会发送任何任务。`,
    en: (p) => `The service answered 429 (rate limited): the whole batch waits and goes on by itself at ${clock(p.until, 'en')}. No job is sent meanwhile.`,
  },
  batch_paused_daily_limit: {
    zh: (p) => `新账户的 24 小时消费上限已满：批次将于 ${clock(p.until, 'zh')} 自动继续。`,
    en: (p) => `The new account's 24-hour spending cap is reached: the batch goes on by itself at ${clock(p.until, 'en')}.`,
  },
  batch_paused_insufficient_credits: {
    zh: (p) => `积分不足：下一个任务需要 ${s(p.needed)} 积分${p.balance !== undefined && p.balance !== null ? `，当前余额 ${s(p.balance)}` : ''}。充值后点“继续”。`,
    en: (p) => `Not enough credits: the next job needs ${s(p.needed)}${p.balance !== undefined && p.balance !== null ? `, the balance is ${s(p.balance)}` : ''}. Top up, then Resume.`,
  },
  batch_paused_restarted: {
    zh: () => '应用在批次运行中退出。已发出的任务已核对（或标记为结果未知，不会重发）；点“继续”发送其余任务。',
    en: () => 'The app stopped during this batch. Jobs in flight were reconciled (or marked unknown; never resent); Resume sends the rest.',
  },
  batch_paused_service_unreachable: {
    zh: () => '服务没有响应（未扣费）。该任务已放回队列；点“继续”重试。',
    en: () => 'The service did not answer (nothing was charged). The job is back in the queue; Resume to try again.',
  },
  batch_paused_problem: {
    zh: (p) => `批次已暂停：${s(p.cause)}`,
    en: (p) => `The batch is paused: ${s(p.cause)}`,
  },
} satisfies Record<string, Text>;
