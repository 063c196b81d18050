// The words of the plan's editing rules (docs/catalog.md "Plan and editing"): unsaved shot-list edits, leaving with
// them, and Start on products × shots already made. A namespace of its own beside batch/i18n.ts.
import { defineTextNamespace, type Text } from '../../i18n/text.ts';

export const planText = defineTextNamespace('catalogPlan', {
  en: {
    saveAndStart: 'Save list and start',
    unsavedStart: 'The shot list has unsaved edits: the plan shows them, and Start saves them first.',
    cannotPrice: 'Start waits for a plan: the error above says what to change.',
    madeLine_one: '{{count}} of these products × shots already has a result in a batch of this list.',
    madeLine_other: '{{count}} of these products × shots already have a result in batches of this list.',
    madePicked_one: '{{count}} of them picked.',
    madePicked_other: '{{count}} of them picked.',
    leaveTitle: 'Unsaved shot list',
    leaveQuestion: 'The shot list “{{name}}” has edits that are not saved. Save them before leaving?',
    leaveSave: 'Save',
    leaveDiscard: 'Discard edits',
    leaveStay: 'Stay',
    warnTitle: 'Some of this is made already',
    warnQuestion_one: '{{cells}} of the {{count}} products × shots already have a result (or one on its way) in this list’s batches. Pay again, or send only what is missing?',
    warnQuestion_other: '{{cells}} of the {{count}} products × shots already have a result (or one on its way) in this list’s batches. Pay again, or send only what is missing?',
    onlyMissing_one: 'Only what is missing: {{count}} job, {{total}} credits',
    onlyMissing_other: 'Only what is missing: {{count}} jobs, {{total}} credits',
    nothingMissing: 'Nothing is missing',
    runAll_one: 'Run all again: {{count}} job, {{total}} credits',
    runAll_other: 'Run all again: {{count}} jobs, {{total}} credits',
    warnCancel: 'Cancel',
  },
  zh: {
    saveAndStart: '保存清单并开始',
    unsavedStart: '拍摄清单有未保存的修改：估价已按修改计算，开始时会先保存。',
    cannotPrice: '需要先有估价才能开始：请按上方的错误提示修改。',
    madeLine_one: '其中 {{count}} 个商品 × 镜头在此清单的批次中已有结果。',
    madeLine_other: '其中 {{count}} 个商品 × 镜头在此清单的批次中已有结果。',
    madePicked_one: '其中 {{count}} 个已选定。',
    madePicked_other: '其中 {{count}} 个已选定。',
    leaveTitle: '拍摄清单未保存',
    leaveQuestion: '拍摄清单“{{name}}”有未保存的修改。离开前要保存吗？',
    leaveSave: '保存',
    leaveDiscard: '放弃修改',
    leaveStay: '留在此页',
    warnTitle: '部分内容已经生成过',
    warnQuestion_one: '{{count}} 个商品 × 镜头中有 {{cells}} 个在此清单的批次中已有结果（或正在生成）。要再次付费，还是只补缺失的？',
    warnQuestion_other: '{{count}} 个商品 × 镜头中有 {{cells}} 个在此清单的批次中已有结果（或正在生成）。要再次付费，还是只补缺失的？',
    onlyMissing_one: '只补缺失的：{{count}} 个任务，{{total}} 积分',
    onlyMissing_other: '只补缺失的：{{count}} 个任务，{{total}} 积分',
    nothingMissing: '没有缺失',
    runAll_one: '全部重新生成：{{count}} 个任务，{{total}} 积分',
    runAll_other: '全部重新生成：{{count}} 个任务，{{total}} 积分',
    warnCancel: '取消',
  },
});

export type PlanT = Text<typeof planText.en>;
