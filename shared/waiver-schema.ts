import { z } from 'zod';

/**
 * `partners/<name>.waivers.json`: the deviations the platform accepts from partner `<name>`, each for a
 * time. Beside the profile rather than in it, so approving a waiver is a change of its own, reviewed by
 * whoever approves waivers. partners/waivers.schema.json is generated from this.
 */
const text = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is missing; give ${what}` : `must be a string; give ${what}`) })
    .trim()
    .min(1, { error: `is empty; give ${what}` })
    .meta({ description: what });

const isoDay = z
  .string({ error: (issue) => (issue.input === undefined ? 'is missing; give the last day the waiver applies, YYYY-MM-DD' : 'must be a string such as "2027-03-31"') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written YYYY-MM-DD, such as "2027-03-31"' })
  .refine((day) => new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), { error: 'is not a calendar date' })
  .meta({ description: 'the last day (UTC) the waiver applies, YYYY-MM-DD' });

export const waiverSchema = z.strictObject({
  rule: text('the id of the rule waived, as the report shows it (docs/RULES.md)'),
  field: z.string().min(1).optional().meta({ description: 'only findings of this field; * stands for any characters, e.g. "fundingSources[*].routingNumber"' }),
  message: z.string().min(1).optional().meta({ description: 'only findings whose message contains this text, in any case; * stands for any characters' }),
  reason: text('why the platform accepts the deviation'),
  approvedBy: text('who approved it'),
  expires: isoDay,
});

export const waiversFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    waivers: z.array(waiverSchema),
  })
  .meta({ title: 'Waivers of one partner', description: 'partners/<name>.waivers.json: deviations the platform accepts from this partner, each until its expiry date.' });
