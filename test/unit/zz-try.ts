import { renderMarkdown } from '/work/main/src/report/markdown-report.ts';
import * as f from '/work/main/test/unit/report-fixtures.ts';
const which = process.argv[2] ?? 'resolvedReport';
const reveal = (process.argv[3] ?? 'names') as 'names' | 'counts';
console.log(renderMarkdown((f as any)[which](5), { reveal }));
