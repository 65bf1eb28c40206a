import { z } from 'zod';

/**
 * A partner profile: `partners/<name>.json` (or `$PARTNERS_DIR/<name>.json`) becomes the Playwright
 * project `<name>`. The field names are fixed: certification teams script against them.
 */

type RawIssue = { input?: unknown; code?: string; expected?: string };

const describeValue = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value);

/** Error messages read after the quoted field name: `"tokenExchangeUrl" is missing; add …`. */
const fieldError = (fix: string) => (issue: RawIssue) => {
  if (issue.input === undefined) return `is missing; ${fix}`;
  if (issue.code === 'invalid_type') return `must be ${issue.expected} (it is ${describeValue(issue.input)}); ${fix}`;
  return undefined;
};

const httpUrl = (what: string) =>
  z
    .url({
      protocol: /^https?$/,
      error: (issue) =>
        fieldError(`add ${what}`)(issue) ??
        `is not an absolute http(s) URL (${JSON.stringify(issue.input)}); write it like "https://partner.example/oauth/token"`,
    })
    .meta({ description: what });

/** An http(s) origin alone: scheme, host and port. */
const httpOrigin = (example: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be an http(s) origin such as "${example}"` })
    .refine((url) => new URL(url).origin === url, { error: 'must be an origin only: scheme, host and port, no path' });

const optionalText = (what: string) =>
  z
    .string({ error: fieldError(`set ${what} as a string`) })
    .min(1, { error: 'is empty; remove the field or give it a value' })
    .optional()
    .meta({ description: what });

const browserStep = z.union(
  [
    z.strictObject({ goto: httpUrl('a page to open') }),
    z.strictObject({ fill: z.string().min(1).meta({ description: 'CSS selector' }), value: z.string() }),
    z.strictObject({ click: z.string().min(1).meta({ description: 'CSS selector' }) }),
  ],
  { error: 'must be {"goto": url}, {"fill": selector, "value": text} or {"click": selector}' },
);

const codeSources = ['mintUrl', 'static', 'browser'] as const;

const codesSchema = z
  .strictObject(
    {
      mintUrl: httpUrl('a test hook: a POST with no body answers {"code": "…"}').optional(),
      static: z
        .array(z.string().min(1, { error: 'is empty; give the code itself' }), { error: fieldError('give a list of codes') })
        .min(1, { error: 'is empty; give the one-time codes the partner handed over' })
        .optional()
        .meta({ description: 'one-time authorization codes handed over by the partner; each is used once' }),
      browser: z
        .strictObject({
          authUrl: httpUrl("the platform auth URL the partner's app sends the user to; the code is captured there"),
          steps: z.array(browserStep).min(1, { error: 'is empty; list the goto/fill/click steps that log in' }),
          timeoutMs: z.number().int().positive().default(30_000).meta({ description: 'time allowed for one login' }),
        })
        .optional()
        .meta({ description: "log in to the partner's own app in Chromium and capture the code" }),
    },
    { error: fieldError('say where fresh authorization codes come from: {"mintUrl": …}, {"static": […]} or {"browser": {…}}') },
  )
  .refine((codes) => codeSources.filter((source) => codes[source] !== undefined).length === 1, {
    error: 'needs exactly one of "mintUrl", "static" or "browser"',
  })
  .meta({ description: 'where the harness gets fresh one-time authorization codes' });

/** A Playwright locator a person can write: a CSS selector, or by role and accessible name, by text, or by test id. */
const locatorSchema = z.union(
  [
    z.string().min(1),
    z.strictObject({ role: z.string().min(1), name: z.string().optional() }),
    z.strictObject({ text: z.string().min(1) }),
    z.strictObject({ testId: z.string().min(1) }),
  ],
  { error: 'must be a CSS selector, or {"role", "name"}, {"text"} or {"testId"}' },
);
export type LocatorSpec = z.output<typeof locatorSchema>;

const platformSchema = z
  .strictObject(
    {
      url: httpUrl('the platform (or its emulator) base URL: the mock-link endpoint and the auth URL live under it'),
      apiKey: z
        .string({ error: fieldError('give the platform api-key (spec §5.4), usually as env:NAME') })
        .min(1, { error: 'is empty; give the api-key' })
        .meta({ description: 'the api-key header of the mock-link endpoint (spec §4.3, §5.4)' }),
      partnerName: z
        .string({ error: fieldError('give the partner name the platform knows') })
        .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, { error: 'must be letters, digits, "-" and "_": it is a path segment of the auth URL' })
        .meta({ description: 'the partnerName of the mock link; the auth URL is {url}/{partnerName}/auth' }),
      hostPageUrl: httpUrl("the page that embeds the platform in an iframe, the stand-in for the partner's app; its origin is the partner's host origin")
        .default('http://127.0.0.1:4402/'),
      hostOrigin: httpOrigin('https://app.partner.example')
        .optional()
        .meta({ description: "the host origin the platform is configured with for this partner (its frame-ancestors, its messages' target): the harness serves its own host page there, inside the browser only, so nothing reaches that origin's server. Without it, hostPageUrl's origin" }),
      mockLinkKey: z
        .string({ error: fieldError('give the HS256 key as a string') })
        .min(32, { error: 'is shorter than 32 characters; the platform signs with at least 32 bytes' })
        .optional()
        .meta({ description: "the platform sandbox's mock-link signing key, if shared: the harness then also forges expired, not-yet-valid and wrong-audience/issuer links" }),
      kind: z
        .enum(['emulator', 'external'], { error: fieldError('must be "emulator" (the bundled emulator) or "external" (a platform the harness did not write)') })
        .optional()
        .meta({ description: 'emulator: the bundled emulator, which the harness configures and seeds (the default for a loopback url); external: a platform the harness never configures or seeds, and stores nothing in that a person would not type (the default for any other url)' }),
      configure: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({ description: 'send this profile to the platform at the start of a run; the default is true for the emulator only. A real platform is configured in its own admin' }),
      authUrl: z
        .string({ error: fieldError('write the auth URL with {code} where the code goes, e.g. "https://app.platform.example/sso/{partnerName}?code={code}"') })
        .refine((template) => template.includes('{code}'), { error: 'must hold {code}, where the authorization code goes' })
        .refine((template) => URL.canParse(template.replaceAll('{partnerName}', 'p').replaceAll('{code}', 'c')) && /^https?:$/.test(new URL(template.replaceAll('{partnerName}', 'p').replaceAll('{code}', 'c')).protocol), { error: 'must be an http(s) URL once {partnerName} and {code} are filled in' })
        .optional()
        .meta({ description: 'the auth URL that receives a code, with {code} (and {partnerName}) where they go; the spec leaves it open ("not shown"). Default: {url}/{partnerName}/auth?code={code}, the emulator\'s' }),
      appOrigins: z
        .array(httpOrigin('https://app.platform.example'), { error: fieldError('list the origins the embedded app is served from') })
        .min(1)
        .optional()
        .meta({ description: "the origins the embedded app is served from, which post the messages to the host; default: the origin of url. A real platform may serve the app and the API from different hosts" }),
      messages: z
        .strictObject({
          typeKey: z.string().min(1).default('type').meta({ description: 'the key of a message that names its kind' }),
          ready: z.string().min(1).default('NAVIGATED_TO_TARGET').meta({ description: 'the kind of the message posted when the app is shown' }),
          error: z.string().min(1).default('AUTHENTICATION_ERROR').meta({ description: 'the kind of the message posted on the error screen' }),
          reasonKey: z.string().min(1).default('reason').meta({ description: 'the key of the error message that gives the reason' }),
        }, { error: fieldError('describe the messages: {"typeKey", "ready", "error", "reasonKey"}') })
        .optional()
        .meta({ description: "the messages the platform posts to the host; the spec leaves them open (\"Events: not shown\"). Default: the emulator's" }),
      mockLink: z
        .strictObject({
          algorithms: z.array(z.string().min(1)).min(1).default(['HS256']).meta({ description: 'the JWS algorithms the mock-link JWT may be signed with' }),
          claim: z.string().min(1).default('accountInfo').meta({ description: 'the claim that carries the account information' }),
          maxLifetimeSeconds: z.number().int().positive().default(600).meta({ description: 'the longest a link may live, from "iat" to "exp"' }),
          unauthorizedStatus: z.number().int().min(400).max(499).optional().meta({ description: 'the status a request without its api-key, or with a wrong one, is refused with; the spec leaves it open. Default: 401, the emulator\'s' }),
          invalidStatus: z.number().int().min(400).max(499).optional().meta({ description: 'the status a request whose body is broken, lacks a field or contradicts itself is refused with; the spec leaves it open. Default: 400, the emulator\'s' }),
          jwksUrl: httpUrl("where the platform publishes the keys its links are signed with (a JSON Web Key Set): each issued link's signature must verify with them, in one of \"algorithms\"").optional(),
        }, { error: fieldError('describe the mock link: {"algorithms", "claim", "maxLifetimeSeconds", "unauthorizedStatus", "invalidStatus", "jwksUrl"}') })
        .optional()
        .meta({ description: "what the mock link's JWT is; the spec says only \"JWT-encoded account information\". Default: the emulator's (HS256, accountInfo, 600 s)" }),
      screens: z
        .strictObject({
          app: locatorSchema.optional().meta({ description: 'the app, once the user is signed on' }),
          error: locatorSchema.optional().meta({ description: 'the error screen' }),
          collect: locatorSchema.optional().meta({ description: 'the screen that collects missing account information' }),
          fieldErrors: z.record(z.string(), locatorSchema).optional().meta({ description: 'the error the collection screen shows beside an input, by the spec path of the input ("user.phone": …); default: [data-error-for="<path>"], the emulator\'s' }),
          fields: z.record(z.string(), locatorSchema).optional().meta({ description: 'the inputs of the collection screen, by the spec path each asks for ("user.phone": …); default: inputs whose data-field (the emulator\'s) or name is the spec path itself' }),
          submit: locatorSchema.optional().meta({ description: "the collection screen's button that sends what was typed" }),
          fundingSource: locatorSchema.optional().meta({ description: "each funding source the app shows once the user is signed on: a source is shown where one of these holds its id as an attribute's value, or its id or nickname in its text. Default: [data-funding-source], the emulator's" }),
          fundingSourcesLink: locatorSchema.optional().meta({ description: 'what to click in the app to see its funding sources, where they are on a screen of their own' }),
        }, { error: fieldError('describe the screens: {"app", "error", "collect", "fields", "submit", "fundingSource", "fundingSourcesLink"}, each a locator') })
        .optional()
        .meta({ description: "how to find the embedded app's screens in its frame, each a Playwright locator: a CSS selector as a string, or {\"role\", \"name\"}, {\"text\"}, {\"testId\"}. Default: the emulator's (main[data-screen=…], input[data-field])" }),
      httpCredentials: z
        .strictObject(
          {
            username: z.string({ error: fieldError('give the user name') }).min(1),
            password: z.string({ error: fieldError('give the password, usually as env:NAME') }).min(1),
            origin: httpOrigin('https://app.sandbox.platform.example').optional(),
          },
          { error: fieldError('give {"username", "password"} (and "origin"); values may be env:NAME') },
        )
        .optional()
        .meta({ description: "the HTTP authentication (Basic, Digest) a platform's sandbox asks the browser for; sent to `origin` only, by default the auth URL's" }),
      storeTestData: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({ description: 'let the harness store in the platform what a person would not type: a company name carrying markup (the escaping check), example personal data typed into the collection screen, an earlier funding source; the default is true for the emulator only' }),
    },
    { error: fieldError('describe the platform: {"url": …, "apiKey": …, "partnerName": …}') },
  )
  .meta({ description: 'the platform whose mock link and embedded app the browser suites drive; without it those suites are skipped' });

const dataApiSchema = z
  .strictObject(
    {
      baseUrl: httpUrl("the data API's base URL ({base_url} of spec §4.1); the bundled emulator is http://127.0.0.1:4401"),
      token: z
        .string({ error: fieldError('give the Bearer token, usually as env:NAME') })
        .min(1, { error: 'is empty; give the Bearer token' })
        .meta({ description: 'the Bearer token of the data API (spec §5.1)' }),
      organizationField: z
        .string({ error: fieldError('give the name of the field that holds an item\'s organization') })
        .min(1)
        .optional()
        .meta({ description: "the field of an item that names its organization, which \"organizationId\" filters by; the spec shows no item's fields. Default: organizationId, the emulator's" }),
      filterRequired: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({ description: 'whether a listing other than organizations refuses a request with neither "organizationId" nor "ids" (400); false makes that rule not applicable. Default: true, the emulator\'s' }),
      idsEncodings: z
        .array(z.enum(['comma', 'repeated'], { error: 'must be "comma" (ids=a,b) or "repeated" (ids=a&ids=b)' }))
        .min(1)
        .optional()
        .meta({ description: 'the encodings of several "ids" the API reads: "comma" (ids=a,b), "repeated" (ids=a&ids=b); the spec leaves it open. Default: both, the emulator\'s' }),
      idsWithOrganization: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({ description: 'whether a listing reads "ids" only beside "organizationId" (spec §4.1 rule 1 leaves which filters each listing needs open): true sends "organizationId" with every "ids" request. Default: false, "ids" alone, the emulator\'s' }),
      nonPositiveLimit: z
        .enum(['refused', 'served'], { error: fieldError('must be "refused" (400) or "served" (a page of at most "maxLimit" items)') })
        .optional()
        .meta({ description: 'what a "limit" of 0 or -1 gets: "refused" with 400, or "served", a page of at most "maxLimit" items (the default size, say). Default: refused, the emulator\'s' }),
      maxLimit: z
        .number({ error: fieldError('give the largest page as a number') })
        .int()
        .min(1)
        .optional()
        .meta({ description: 'the largest "limit" the API serves. Default: 100, the emulator\'s' }),
      overLimit: z
        .enum(['refused', 'clamped'], { error: fieldError('must be "refused" (400) or "clamped" (served at "maxLimit")') })
        .optional()
        .meta({ description: 'what a "limit" over "maxLimit" gets: "refused" with 400, or "clamped" to "maxLimit". Default: refused, the emulator\'s' }),
      parameterErrorStatus: z
        .number({ error: fieldError('give the status as a number, such as 400 or 422') })
        .int()
        .min(400)
        .max(499)
        .optional()
        .meta({ description: 'the status the API refuses a listing without its filter, an invalid "limit" or an unknown "after" with; the spec leaves it open ("Error response body format and HTTP status codes of the data API: not shown"). Default: 400, the emulator\'s' }),
      unknownCursor: z
        .enum(['refused', 'empty'], { error: fieldError('must be "refused" (400) or "empty" (an empty last page)') })
        .optional()
        .meta({ description: 'what an "after" that is no id of the listing gets: "refused" with 400, or "empty", an empty last page. Default: refused, the emulator\'s' }),
    },
    { error: fieldError('describe the data API: {"baseUrl": …, "token": …}') },
  )
  .meta({ description: 'the read-only data API to check (spec §4.1); without it the data-API suite is skipped' });

const partnerAppSchema = z
  .strictObject(
    {
      page: httpUrl("the page of the partner's app that embeds the platform in an iframe"),
      login: z.array(browserStep).optional().meta({ description: 'the goto/fill/click steps that sign a test user in to the app first, as in codes.browser' }),
      frame: locatorSchema.optional().meta({ description: 'the iframe that holds the platform; default: the first iframe' }),
      authError: locatorSchema.optional().meta({ description: 'what the page shows when the platform says sign-on failed: with it, the harness checks that the page acts on no message from another origin' }),
    },
    { error: fieldError('describe the partner\'s app: {"page", "login", "frame", "authError"}') },
  )
  .meta({ description: "the partner's own app, whose page embeds the platform: the harness lets it embed the platform and judges the page (needs a platform block)" });

export const profileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    tokenExchangeUrl: httpUrl("the partner's token exchange URL (TokenExchangeUrl)"),
    accountInfoUrl: httpUrl("the partner's account information URL (AccountInfoUrl)"),
    fundingSourcesUrl: httpUrl("the partner's funding sources URL (FundingSourcesUrl), if the partner has one").optional(),
    clientId: optionalText('the client_id the platform sends, if predefined'),
    clientSecret: optionalText('the client_secret the platform sends, if predefined'),
    scope: optionalText('the scope the platform sends, if predefined'),
    collectMissingAccountInfo: z
      .boolean({ error: fieldError('write true or false') })
      .default(false)
      .meta({ description: 'CollectMissingAccountInfo: users type in missing Yes* fields instead of seeing an error' }),
    // Required, with no default: spec §4.2 lets the platform send either, per partner, and a guess would
    // certify an encoding the platform may never send. Form is what RFC 6749 §4.1.3 and OAuth libraries use.
    tokenExchangeEncoding: z
      .enum(['json', 'form'], {
        error: (issue) =>
          issue.input === undefined
            ? 'is missing; say which body the platform sends this partner\'s token requests in: "form" (application/x-www-form-urlencoded, the RFC 6749 §4.1.3 standard that OAuth libraries accept) or "json" (spec §4.2 allows either); that encoding is certified, the other only noted'
            : 'must be "json" or "form": the body encoding the platform is configured to send this partner\'s token requests in',
      })
      .meta({ description: 'the body encoding the platform is configured to send this partner\'s token requests in (spec §4.2): "form" (RFC 6749 §4.1.3, what OAuth libraries accept) or "json". That encoding must issue a token (MUST); the other is tried and noted (INFO)' }),
    codes: codesSchema,
    fundingSync: z
      .strictObject(
        { mintUrl: httpUrl('a test hook like codes.mintUrl: a POST with no body answers {"code": "…"} for the same test user, whose funding sources then list one fewer than its codes.mintUrl codes do') },
        { error: fieldError('give {"mintUrl": …}: a test hook whose codes sign on the same user with one funding source fewer') },
      )
      .optional()
      .meta({ description: "spec §4.2's removal rule, on any platform: the partner's way to list one funding source fewer for the test user, so the harness can see the platform remove it at the next sign-on. Without it, the funding sync is judged on the bundled emulator only (by planting a source there), and is not checked elsewhere" }),
    platform: platformSchema.optional(),
    partnerApp: partnerAppSchema.optional(),
    dataApi: dataApiSchema.optional(),
    environment: z
      .enum(['staging', 'production'], { error: fieldError('must be "staging" or "production"') })
      .default('staging')
      .meta({ description: 'what the profile points at: "production" makes any plain http:// endpoint a failure (nothing is sent to it), where "staging" allows http:// for a test server' }),
    caFile: z
      .string({ error: fieldError('give the path of a PEM file') })
      .min(1)
      .optional()
      .meta({ description: 'a PEM file of CA certificates to trust besides the system\'s (a private CA), relative to the profile file' }),
    slowChecks: z
      .boolean({ error: fieldError('give true or false') })
      .default(false)
      .meta({ description: 'run the opt-in checks that take long: the code-lifetime check holds a code for 10 min 5 s before redeeming it. `npm run certify -- <partner> --slow` turns it on for one run' }),
    maxCodeLifetimeSeconds: z
      .number({ error: fieldError('give seconds as a number') })
      .int()
      .min(1)
      .max(600)
      .default(600)
      .meta({ description: 'the code lifetime the slow check holds a code past (plus 5 s): RFC 6749 §4.1.2 recommends 10 minutes at most' }),
    requestTimeoutMs: z
      .number({ error: fieldError('give milliseconds as a number') })
      .int()
      .min(100)
      .max(120_000)
      .default(10_000)
      .meta({ description: 'deadline for each call to the partner, headers and body' }),
  })
  .meta({ title: 'Partner certification profile' });

export type Profile = z.output<typeof profileSchema>;

/**
 * What the platform is configured with for one partner (spec §4.2 URLs, §5.3 client credentials, §7.2
 * CollectMissingAccountInfo, the host origin and the encoding): the profile's own fields, so the
 * emulator learns a partner from its profile.
 */
export const partnerConfigSchema = profileSchema
  .pick({
    tokenExchangeUrl: true,
    accountInfoUrl: true,
    fundingSourcesUrl: true,
    clientId: true,
    clientSecret: true,
    scope: true,
    collectMissingAccountInfo: true,
    tokenExchangeEncoding: true,
    requestTimeoutMs: true,
  })
  .extend({
    hostOrigin: httpOrigin('https://app.partner.example'),
  });
export type PartnerConfig = z.output<typeof partnerConfigSchema>;

export function partnerConfigOf(profile: Profile & { platform: PlatformProfile }): PartnerConfig {
  const { tokenExchangeUrl, accountInfoUrl, fundingSourcesUrl, clientId, clientSecret, scope, collectMissingAccountInfo, tokenExchangeEncoding, requestTimeoutMs } = profile;
  const hostOrigin = profile.platform.hostOrigin ?? new URL(profile.platform.hostPageUrl).origin;
  return { tokenExchangeUrl, accountInfoUrl, fundingSourcesUrl, clientId, clientSecret, scope, collectMissingAccountInfo, tokenExchangeEncoding, requestTimeoutMs, hostOrigin };
}
export type BrowserCodes = NonNullable<Profile['codes']['browser']>;
export type PlatformProfile = NonNullable<Profile['platform']>;
