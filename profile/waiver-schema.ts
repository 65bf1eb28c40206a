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

/** Whether `YYYY-MM-DD` is a day of the calendar (2027-13-45, 0000-00-00 and 2026-02-30 are not). */
const isCalendarDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
};

const isoDay = z
  .string({
    error: (issue) => (issue.input === undefined ? 'is missing; give the last day the waiver applies, YYYY-MM-DD' : 'must be a string such as "2027-03-31"'),
  })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { abort: true, error: 'must be a date written YYYY-MM-DD, such as "2027-03-31"' })
  .refine(isCalendarDay, { error: (issue) => `is not a calendar date (${JSON.stringify(issue.input)}); write a real day, YYYY-MM-DD, such as "2027-03-31"` })
  .meta({ description: 'the last day (UTC) the waiver applies, YYYY-MM-DD, at most 180 days ahead' });

/** A waiver is reviewed at least this often: its expiry may be at most this many days after the day it is read. */
export const longestWaiverDays = 180;

// Invisible characters (controls, zero-width and direction marks) make a name read as something else.
const invisible = /[\p{Cc}\p{Cf}]/u;
/** Text a reviewer reads: letters, at least two, and nothing invisible. */
const visible = (what: string) =>
  text(what)
    .refine((value) => !invisible.test(value), {
      abort: true,
      error: (issue) =>
        `holds invisible characters (${[...String(issue.input)]
          .filter((c) => invisible.test(c))
          .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
          .join(', ')}); write it in plain letters`,
    })
    .refine((value) => (value.match(/\p{L}/gu) ?? []).length >= 2, { error: `has no letters to read; give ${what}, in words` });

export const waiverSchema = z.strictObject({
  rule: text('the id of the rule waived, as the report shows it (docs/RULES.md)'),
  field: z.string().min(1).optional().meta({ description: 'only findings of this field; * stands for any characters, e.g. "fundingSources[*].routingNumber"' }),
  message: z.string().min(1).optional().meta({
    description:
      'only findings whose whole message is this, in any case; * stands for any characters (write the message as the report shows it, with * for what may vary)',
  }),
  reason: visible('why the platform accepts the deviation'),
  approvedBy: visible('who approved it'),
  expires: isoDay,
});

export const waiversFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    waivers: z.array(waiverSchema),
  })
  .meta({
    title: 'Waivers of one partner',
    description: 'partners/<name>.waivers.json: deviations the platform accepts from this partner, each until its expiry date.',
  });
