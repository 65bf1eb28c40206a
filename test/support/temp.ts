import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';

/**
 * A new folder in the current test's output folder, which Playwright empties when the next run starts:
 * a failed test's folders stay there to look at, and nothing piles up in the system's temporary folder.
 */
export const tempDir = (prefix: string): string => mkdtempSync(path.join(test.info().outputPath(), prefix));
