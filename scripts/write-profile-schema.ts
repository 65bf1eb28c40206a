// `npm run schema`: regenerates partners/profile.schema.json from the zod schema (test/unit/profile.spec.ts keeps them in sync).
import { writeFileSync } from 'node:fs';
import { profileJsonSchema } from '../partners/profile';

writeFileSync('partners/profile.schema.json', `${JSON.stringify(profileJsonSchema(), null, 2)}\n`);
console.log('wrote partners/profile.schema.json');
