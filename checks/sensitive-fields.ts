/**
 * The payload keys whose values messages, reports and evidence show only by their last 4 characters, under
 * whatever object they sit: a bank account number and a tax id (the fields declared `sensitive`). A leaf of its
 * own, so the masking reads it without the rule catalogue; test/unit/catalogue.spec.ts proves it names exactly
 * the catalogue's sensitive fields.
 */
export const sensitiveKeys: readonly string[] = ['identifier', 'bankAccountNumber'];
