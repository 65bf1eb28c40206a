/** The one client registered with the reference partner; partners/reference.json carries the same values. */
export const referenceClient = { id: 'reference-client', secret: 'reference-sandbox-secret-4b1d' } as const;
