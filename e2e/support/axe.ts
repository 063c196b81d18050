// axe-core on the page as it is, shared by the specs: serious and critical violations, one readable line each
// (rule, impact, summary, then every target with its failure summary). None is expected anywhere. Also the WCAG
// contrast of an element's text on its own background, for the hover checks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0/2.1 A and AA rules, plus axe's best practices (what the specs have always run). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

export interface AxeOptions {
  /** A CSS selector to check only that part of the page (default: the whole page). */
  include?: string;
  tags?: readonly string[];
}

export async function seriousViolations(page: Page, options: AxeOptions | string = {}): Promise<string[]> {
  const o = typeof options === 'string' ? { include: options } : options;
  // Evaluated through the DevTools protocol (not a <script> tag), so the app's CSP stays as it is.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async ({ include, tags }) => {
      const axe = (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
      const context = include === null ? { exclude: [] } : { include: [[include]] };
      const result = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations;
    },
    { include: o.include ?? null, tags: [...(o.tags ?? AXE_TAGS)] },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`).join(' | ')}`);
}

/** WCAG contrast of an element's text against its own background (both computed, alpha ignored). */
export async function contrastOf(locator: Locator): Promise<number> {
  const [fg, bg] = await locator.evaluate((el) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): { color: string; backgroundColor: string } }).getComputedStyle(el);
    return [style.color, style.backgroundColor];
  });
  const lum = (c: string) => {
    const [r, g, b] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
  return (a + 0.05) / (b + 0.05);
}
