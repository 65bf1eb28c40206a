// `npm run generate`: writes every file derived from code (schemas, docs/RULES.md); see generated-files.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatedFiles } from './generated-files';

for (const [file, content] of Object.entries(generatedFiles())) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  console.log(`wrote ${file}`);
}
