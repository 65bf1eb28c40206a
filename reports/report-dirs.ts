import path from 'node:path';
import { defaultReportDir, historyDirOf } from './history';

/** Where a run's certification goes: options of the certification reporter, or their environment variables. */
export interface ReportDirs {
  outputDir: string;
  historyDir: string;
  compare: string | undefined;
}

/** The certification reporter's options `outputDir`, `historyDir` and `compare`, else CERTIFICATION_REPORT_DIR, CERTIFY_HISTORY_DIR and CERTIFY_COMPARE. */
export function reportDirsOf(options: Partial<Record<keyof ReportDirs, unknown>> = {}, env: NodeJS.ProcessEnv = process.env): ReportDirs {
  const given = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const outputDir = path.resolve(given(options.outputDir) ?? env.CERTIFICATION_REPORT_DIR ?? defaultReportDir);
  return {
    outputDir,
    historyDir: path.resolve(given(options.historyDir) ?? historyDirOf(outputDir, env)),
    compare: given(options.compare) ?? env.CERTIFY_COMPARE,
  };
}
