/**
 * Screenshots that survive a stalled capture. Headless Chromium's Page.captureScreenshot
 * now and then never answers (playwright#28995, #31265): in CI it stalled once on a
 * dashboard page whose other 31 captures took under 0.7 s each, and Playwright's default
 * 30 s timeout failed the walk. A capture is a record for people to look at; the pages'
 * assertions are the test. So a capture gets CAPTURE_MS, then one more try (on a fresh page
 * where the caller can open one), and a second failure fails the test with the page's URL.
 */
import type { Page } from "playwright-core";

/** Longer than any capture measured here (≤ 0.7 s beside CI's other tests), far below 30 s. */
export const CAPTURE_MS = 10_000;

type ScreenshotOptions = { path: string; fullPage?: boolean };
type Capturable = Pick<Page, "screenshot" | "url">;

/**
 * Takes `options.path` of `page`. If the capture fails, `reopen` (when given) opens the same
 * URL in a fresh page for the second try; without it the second try is on `page`.
 */
export async function screenshot(
  page: Capturable,
  options: ScreenshotOptions,
  reopen?: () => Promise<Capturable>,
): Promise<void> {
  try {
    await page.screenshot({ ...options, timeout: CAPTURE_MS });
    return;
  } catch (e) {
    console.warn(`screenshot of ${page.url()} failed (${firstLine(e)}); trying once more`);
  }
  const again = reopen ? await reopen() : page;
  try {
    await again.screenshot({ ...options, timeout: CAPTURE_MS });
  } catch (e) {
    throw new Error(`screenshot of ${again.url()} failed twice: ${firstLine(e)}`, { cause: e });
  }
}

function firstLine(e: unknown): string {
  return String(e instanceof Error ? e.message : e).split("\n")[0];
}
