// The browser the end-to-end suites drive. Without it they skip on a developer's machine, but in CI
// (CI=true, as .ci/run sets) a missing browser fails the run: a green CI must mean the dashboard
// was tested, not that its tests were quietly left out.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** false when Chromium is there; else the reason to skip, or (under CI=true) an error. */
export function skipWithoutBrowser(): string | false {
  if (existsSync(CHROMIUM)) return false;
  // Starts as support/databases.ts's reasons do: support/skip-summary.ts counts it in its line.
  const reason = `Chromium (not found at ${CHROMIUM}); install it (apt-get install -y chromium) to run the dashboard tests`;
  if (process.env.CI === 'true') throw new Error(`${reason}. CI=true: browser tests may not be skipped.`);
  return `needs ${reason}`;
}

// ---------------------------------------------------------------------------------------------
// Accessibility and screenshots: every screen of every browser suite goes through checkScreen.

export const SCREENSHOTS = join(fileURLToPath(new URL('..', import.meta.url)), 'test-output', 'screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Asserts that the page does not scroll sideways, once its layout has settled after a resize
 * (charts re-measure their width from a ResizeObserver, a frame or more later): it polls for up to
 * 3 s and reports the last width. A fixed wait (150 ms) was too short on a loaded CI machine.
 */
export async function assertFitsViewport(page: Page, what: string): Promise<void> {
  let last = { scroll: 0, width: 0 };
  for (const deadline = Date.now() + 3000; ; ) {
    last = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    if (last.scroll <= last.width || Date.now() > deadline) break;
    await page.waitForTimeout(50);
  }
  if (last.scroll <= last.width) return;
  // What sticks out, to fix it from the failure alone: text wider than its box (an unbreakable
  // token), and boxes past the right edge that no scroll container clips.
  const wide = await page.evaluate(() => {
    const out: string[] = [];
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (clipped(el)) continue;
      const box = el.getBoundingClientRect();
      const label = `<${el.tagName.toLowerCase()}${el.className ? ` class="${String(el.className)}"` : ''}>`;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && box.left + el.scrollWidth > window.innerWidth)
        out.push(
          `${label} holds text ${el.scrollWidth - el.clientWidth}px wider than itself: ${(el.textContent ?? '').trim().slice(0, 160)}`,
        );
      else if (box.right > window.innerWidth + 0.5)
        out.push(`${label} ends at ${Math.round(box.right)}px: ${(el.textContent ?? '').trim().slice(0, 60)}`);
    }
    return out.slice(0, 5);
  });
  assert.fail(
    `${what}: the page is ${last.scroll}px wide in a ${last.width}px viewport; past the edge: ${wide.join('; ') || '(no element: check margins)'}`,
  );
}

export interface CheckOptions {
  /** CSS selectors axe checks; the whole document when absent. */
  include?: string[];
  /** CSS selectors axe leaves out (third-party markup we cannot change). */
  exclude?: string[];
  /** false: run axe only, no screenshots. */
  screenshots?: boolean;
}

/** axe-core's violations on the page (or the included part of it), as `rule: targets` lines. */
export async function axeViolations(
  page: Page,
  options: Pick<CheckOptions, 'include' | 'exclude'> = {},
): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const context =
    options.include || options.exclude
      ? { include: options.include?.map((s) => [s]) ?? [['html']], exclude: options.exclude?.map((s) => [s]) ?? [] }
      : null;
  return page.evaluate(async (context) => {
    type Result = { violations: Array<{ id: string; nodes: Array<{ target: unknown; failureSummary?: string }> }> };
    const axe = (window as unknown as { axe: { run(context: unknown, options: object): Promise<Result> } }).axe;
    const result = await axe.run(context ?? document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => JSON.stringify(n.target))
          .slice(0, 3)
          .join(', ')}`,
    );
  }, context);
}

/**
 * The current screen, in light and dark: axe must find 0 violations at desktop and at phone width,
 * where it is photographed (test-output/screenshots/<name>-<scheme>-<width>.png).
 * Leaves the page in light mode at the viewport it had.
 */
export async function checkScreen(page: Page, name: string, options: CheckOptions = {}): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP;
  if (options.screenshots !== false) mkdirSync(SCREENSHOTS, { recursive: true });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(DESKTOP);
      await page.waitForTimeout(150); // charts re-measure their width; transitions settle
      assert.deepEqual(await axeViolations(page, options), [], `axe on ${name} (${scheme})`);
      if (options.screenshots === false) continue;
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(150);
      // At phone width too: tables and code blocks scroll there, and controls wrap.
      assert.deepEqual(await axeViolations(page, options), [], `axe on ${name} (${scheme}, phone)`);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}-phone.png`), fullPage: true });
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewport);
  }
}
