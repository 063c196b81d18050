// The batch plan at catalog size (docs/benchmarks.md "Batch plan"): planJobs over 250 products × the 4-shot
// marketplace preset (1,000 jobs), every request validated and priced as a single generation is. Products have
// 0–3 references and mixed prompts (English and Chinese, some asking for text in the image, some long), so auto
// picks both models. The plan is made every time the catalog screen's selection or budget changes; target: p95 < 100 ms.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { jobsWithinBudget, planJobs, type PlannedProduct } from '../src-shared/batch-plan.ts';
import { presetById } from '../src-shared/shot-lists.ts';
import { machineLine, median, percentile, writeSection } from './report.ts';

const PRODUCTS = 250;
const WARMUP = 3;
const RUNS = 9;
const TARGET_P95_MS = 100;
const PRESET_ID = 'sl_preset_marketplace_hero';

const ITEMS = ['ceramic mug', 'linen shirt', 'leather wallet', 'running shoe', 'glass perfume bottle', 'wireless earbuds', 'oak cutting board', 'silk scarf'];
const ITEMS_ZH = ['陶瓷马克杯', '亚麻衬衫', '真皮钱包', '跑鞋', '玻璃香水瓶', '无线耳机', '橡木砧板', '真丝围巾'];
const LONG_DETAIL =
  ' Shot for a premium catalogue: accurate colour, visible texture, realistic proportions, no distortion, consistent lighting across the series,' +
  ' gentle shadow under the product, background kept clean and uncluttered, sharp focus on the front edge.';

function productPrompt(i: number): string {
  const item = ITEMS[i % ITEMS.length] ?? 'product';
  const itemZh = ITEMS_ZH[i % ITEMS_ZH.length] ?? '商品';
  switch (i % 6) {
    case 0:
      return `A ${item} in matte finish, photographed in a bright studio.`;
    case 1:
      return `${itemZh}，简约设计，柔和自然光，细节清晰。`;
    case 2:
      return `A ${item} with the brand name "NORD" printed on it.`; // text in the image: auto picks gpt-image-2
    case 3:
      return `${itemZh}，包装上印有品牌名称“北屿”。`; // 印有: text in the image
    case 4:
      return `A ${item}.${LONG_DETAIL.repeat(5)}`; // about 1,240 characters
    default:
      return `${itemZh}，放在大理石台面上。${LONG_DETAIL}`;
  }
}

function products(): PlannedProduct[] {
  return Array.from({ length: PRODUCTS }, (_, i) => ({
    id: `pr_${String(i).padStart(8, '0')}`,
    sku: `SKU-${1000 + i}`,
    name: `Product ${i}`,
    prompt: productPrompt(i),
    referenceImageIds: Array.from({ length: i % 4 }, (_, k) => `img_${String(i * 4 + k).padStart(8, '0')}`),
  }));
}

function main(): void {
  const preset = presetById(PRESET_ID);
  if (!preset) throw new Error(`no preset ${PRESET_ID}`);
  const input = products();
  const promptLengths = input.map((p) => p.prompt.length);
  const minPrompt = Math.min(...promptLengths);
  const maxPrompt = Math.max(...promptLengths);
  for (let r = 0; r < WARMUP; r++) planJobs(input, preset.shots);

  const times: number[] = [];
  let plan = planJobs(input, preset.shots);
  for (let r = 0; r < RUNS; r++) {
    const started = performance.now();
    plan = planJobs(input, preset.shots);
    times.push(performance.now() - started);
  }
  const expectedJobs = PRODUCTS * preset.shots.length;
  if (plan.jobs.length !== expectedJobs || plan.problems.length > 0) {
    throw new Error(`expected ${expectedJobs} jobs and no problems, got ${plan.jobs.length} jobs and ${plan.problems.length} problems`);
  }
  const total = plan.jobs.reduce((sum, j) => sum + j.estimate, 0);
  const byModel = new Map<string, number>();
  for (const job of plan.jobs) byModel.set(job.model, (byModel.get(job.model) ?? 0) + 1);
  const budget = Math.floor(total / 2);
  const budgetStarted = performance.now();
  const fit = jobsWithinBudget(plan.jobs, budget);
  const budgetMs = performance.now() - budgetStarted;

  const p50 = median(times);
  const p95 = percentile(times, 0.95);
  const load = loadavg().map((x) => x.toFixed(1)).join(' / ');
  console.log(`planJobs, ${plan.jobs.length} jobs: median ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (runs: ${times.map((t) => t.toFixed(2)).join(', ')})`);
  writeSection(
    'batch-plan',
    `## Batch plan (shared code, main process)

Machine: ${machineLine()}; load average when the runs ended: ${load} (the machine is shared with other work).
Command: \`npm run bench -- batch-plan\` (bench/batch-plan.bench.ts; ${WARMUP} warm-up plans, then ${RUNS} timed; with ${RUNS} runs the p95 is the slowest).
\`planJobs\` over ${PRODUCTS} products × the ${preset.shots.length}-shot preset \`${PRESET_ID}\` = ${plan.jobs.length.toLocaleString('en-US')} jobs, each request built,
validated by \`validateGenerateRequest\` and priced by \`estimateCredits\` (auto resolved). Products have 0–3 references and
six kinds of prompt (English and Chinese, a third asking for text in the image, a third long; ${minPrompt}–${maxPrompt.toLocaleString('en-US')} characters).
Jobs per model (three shots of the preset are fixed on nano-banana-2, auto chooses for the fourth): ${[...byModel].map(([model, n]) => `${model} ${n}`).join(', ')}; plan total ${total.toLocaleString('en-US')} credits.

| measure | result | runs | target |
|---|---|---|---|
| planJobs, ${plan.jobs.length.toLocaleString('en-US')} jobs, median | ${p50.toFixed(2)} ms | ${times.map((t) => t.toFixed(2)).join(', ')} | |
| planJobs, ${plan.jobs.length.toLocaleString('en-US')} jobs, p95 | **${p95.toFixed(2)} ms** | | < ${TARGET_P95_MS} ms ${p95 < TARGET_P95_MS ? '✔' : '✘'} |
| jobsWithinBudget over the plan (budget ${budget.toLocaleString('en-US')}: ${fit} jobs fit) | ${budgetMs.toFixed(2)} ms | one run | |`,
  );
  if (p95 >= TARGET_P95_MS) {
    console.error(`batch-plan bench: p95 ${p95.toFixed(2)} ms is over ${TARGET_P95_MS} ms`);
    process.exitCode = 1;
  }
}

main();
