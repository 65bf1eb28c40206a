export type TokenExchangeEncoding = 'form' | 'json';

export interface PartnerConfig {
  partnerName: string;
  /** Origins where the embedding partner's page may live: the only frame ancestors and message targets. */
  hostOrigins: string[];
  tokenExchangeUrl: string;
  accountInfoUrl: string;
  fundingSourcesUrl?: string;
  clientId?: string;
  clientSecret?: string;
  tokenExchangeEncoding: TokenExchangeEncoding;
  scope?: string;
  collectMissingAccountInfo: boolean;
  /** Authenticates the mock-link endpoint (spec §4.3, §5.4) and the partner test hook. */
  apiKey: string;
}

const reference: PartnerConfig = {
  partnerName: 'reference',
  hostOrigins: ['http://127.0.0.1:4400', 'http://localhost:4400', 'http://harbor-host.reference.example'],
  tokenExchangeUrl: 'http://127.0.0.1:4400/oauth/token',
  accountInfoUrl: 'http://127.0.0.1:4400/api/account',
  fundingSourcesUrl: 'http://127.0.0.1:4400/api/funding-sources',
  clientId: 'reference-client',
  clientSecret: 'reference-sandbox-secret-4b1d',
  tokenExchangeEncoding: 'json',
  collectMissingAccountInfo: true,
  apiKey: 'harbor-sandbox-api-key-7c21',
};

export function defaultPartners(): PartnerConfig[] {
  return [
    { ...reference, hostOrigins: [...reference.hostOrigins] },
    { ...reference, hostOrigins: [...reference.hostOrigins], partnerName: 'reference-strict', collectMissingAccountInfo: false },
  ];
}

export class PartnerRegistry {
  private readonly byName = new Map<string, PartnerConfig>();

  constructor(partners: PartnerConfig[]) {
    for (const p of partners) this.byName.set(p.partnerName, p);
  }

  get(name: unknown): PartnerConfig | undefined {
    return typeof name === 'string' ? this.byName.get(name) : undefined;
  }

  upsert(p: PartnerConfig): 'created' | 'updated' {
    const existed = this.byName.has(p.partnerName);
    this.byName.set(p.partnerName, p);
    return existed ? 'updated' : 'created';
  }

  isKnownApiKey(key: unknown): boolean {
    return typeof key === 'string' && key !== '' && [...this.byName.values()].some((p) => p.apiKey === key);
  }
}

function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const optionalStrings = ['clientId', 'clientSecret', 'scope'] as const;

/** Parses a PartnerConfig from the test hook's JSON body; returns the offending field on failure. */
export function parsePartnerConfig(body: unknown): { ok: true; partner: PartnerConfig } | { ok: false; field: string; detail: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, field: 'body', detail: 'body must be a JSON object' };
  const b = body as Record<string, unknown>;
  if (typeof b.partnerName !== 'string' || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(b.partnerName)) {
    return { ok: false, field: 'partnerName', detail: 'partnerName must be lowercase letters, digits and dashes' };
  }
  if (!Array.isArray(b.hostOrigins) || b.hostOrigins.length === 0 || !b.hostOrigins.every(isOrigin)) {
    return { ok: false, field: 'hostOrigins', detail: 'hostOrigins must be a non-empty list of origins (scheme://host[:port])' };
  }
  for (const f of ['tokenExchangeUrl', 'accountInfoUrl'] as const) {
    if (!isHttpUrl(b[f])) return { ok: false, field: f, detail: `${f} must be an http(s) URL` };
  }
  if (b.fundingSourcesUrl !== undefined && !isHttpUrl(b.fundingSourcesUrl)) {
    return { ok: false, field: 'fundingSourcesUrl', detail: 'fundingSourcesUrl must be an http(s) URL when given' };
  }
  for (const f of optionalStrings) {
    if (b[f] !== undefined && (typeof b[f] !== 'string' || b[f] === '')) return { ok: false, field: f, detail: `${f} must be a non-empty string when given` };
  }
  if (b.tokenExchangeEncoding !== 'form' && b.tokenExchangeEncoding !== 'json') {
    return { ok: false, field: 'tokenExchangeEncoding', detail: "tokenExchangeEncoding must be 'form' or 'json'" };
  }
  if (typeof b.collectMissingAccountInfo !== 'boolean') {
    return { ok: false, field: 'collectMissingAccountInfo', detail: 'collectMissingAccountInfo must be a boolean' };
  }
  if (typeof b.apiKey !== 'string' || b.apiKey.length < 8) return { ok: false, field: 'apiKey', detail: 'apiKey must be a string of 8 or more characters' };
  const partner: PartnerConfig = {
    partnerName: b.partnerName,
    hostOrigins: [...b.hostOrigins],
    tokenExchangeUrl: b.tokenExchangeUrl as string,
    accountInfoUrl: b.accountInfoUrl as string,
    tokenExchangeEncoding: b.tokenExchangeEncoding,
    collectMissingAccountInfo: b.collectMissingAccountInfo,
    apiKey: b.apiKey,
  };
  if (b.fundingSourcesUrl !== undefined) partner.fundingSourcesUrl = b.fundingSourcesUrl;
  for (const f of optionalStrings) if (b[f] !== undefined) partner[f] = b[f] as string;
  return { ok: true, partner };
}
