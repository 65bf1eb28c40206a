import { z } from 'zod';
import { fieldError, httpOrigin, httpUrl, locatorSchema } from './schema-fields';

/** The profile's blocks for the platform: its sandbox and app (`platform`) and its data API (`dataApi`). */

export const platformSchema = z
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
      hostPageUrl: httpUrl(
        "the page that embeds the platform in an iframe, the stand-in for the partner's app; its origin is the partner's host origin",
      ).default('http://127.0.0.1:4402/'),
      hostOrigin: httpOrigin('https://app.partner.example').optional().meta({
        description:
          "the host origin the platform is configured with for this partner (its frame-ancestors, its messages' target): the harness serves its own host page there, inside the browser only, so nothing reaches that origin's server. Without it, hostPageUrl's origin",
      }),
      mockLinkKey: z
        .string({ error: fieldError('give the HS256 key as a string') })
        .min(32, { error: 'is shorter than 32 characters; the platform signs with at least 32 bytes' })
        .optional()
        .meta({
          description:
            "the platform sandbox's mock-link signing key, if shared: the harness then also forges expired, not-yet-valid and wrong-audience/issuer links",
        }),
      kind: z
        .enum(['emulator', 'external'], { error: fieldError('must be "emulator" (the bundled emulator) or "external" (a platform the harness did not write)') })
        .optional()
        .meta({
          description:
            'emulator: the bundled emulator, which the harness configures and seeds (the default for a loopback url); external: a platform the harness never configures or seeds, and stores nothing in that a person would not type (the default for any other url)',
        }),
      configure: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({
          description:
            'send this profile to the platform at the start of a run; the default is true for the emulator only. A real platform is configured in its own admin',
        }),
      authUrl: z
        .string({ error: fieldError('write the auth URL with {code} where the code goes, e.g. "https://app.platform.example/sso/{partnerName}?code={code}"') })
        .refine((template) => template.includes('{code}'), { error: 'must hold {code}, where the authorization code goes' })
        .refine(
          (template) =>
            URL.canParse(template.replaceAll('{partnerName}', 'p').replaceAll('{code}', 'c')) &&
            /^https?:$/.test(new URL(template.replaceAll('{partnerName}', 'p').replaceAll('{code}', 'c')).protocol),
          { error: 'must be an http(s) URL once {partnerName} and {code} are filled in' },
        )
        .optional()
        .meta({
          description:
            'the auth URL that receives a code, with {code} (and {partnerName}) where they go; the spec leaves it open ("not shown"). Default: {url}/{partnerName}/auth?code={code}, the emulator\'s',
        }),
      appOrigins: z
        .array(httpOrigin('https://app.platform.example'), { error: fieldError('list the origins the embedded app is served from') })
        .min(1)
        .optional()
        .meta({
          description:
            'the origins the embedded app is served from, which post the messages to the host; default: the origin of url. A real platform may serve the app and the API from different hosts',
        }),
      messages: z
        .strictObject(
          {
            typeKey: z.string().min(1).default('type').meta({ description: 'the key of a message that names its kind' }),
            ready: z.string().min(1).default('NAVIGATED_TO_TARGET').meta({ description: 'the kind of the message posted when the app is shown' }),
            error: z.string().min(1).default('AUTHENTICATION_ERROR').meta({ description: 'the kind of the message posted on the error screen' }),
            reasonKey: z.string().min(1).default('reason').meta({ description: 'the key of the error message that gives the reason' }),
          },
          { error: fieldError('describe the messages: {"typeKey", "ready", "error", "reasonKey"}') },
        )
        .optional()
        .meta({ description: 'the messages the platform posts to the host; the spec leaves them open ("Events: not shown"). Default: the emulator\'s' }),
      mockLink: z
        .strictObject(
          {
            algorithms: z.array(z.string().min(1)).min(1).default(['HS256']).meta({ description: 'the JWS algorithms the mock-link JWT may be signed with' }),
            claim: z.string().min(1).default('accountInfo').meta({ description: 'the claim that carries the account information' }),
            maxLifetimeSeconds: z.number().int().positive().default(600).meta({ description: 'the longest a link may live, from "iat" to "exp"' }),
            unauthorizedStatus: z.number().int().min(400).max(499).optional().meta({
              description:
                "the status a request without its api-key, or with a wrong one, is refused with; the spec leaves it open. Default: 401, the emulator's",
            }),
            invalidStatus: z.number().int().min(400).max(499).optional().meta({
              description:
                "the status a request whose body is broken, lacks a field or contradicts itself is refused with; the spec leaves it open. Default: 400, the emulator's",
            }),
            jwksUrl: httpUrl(
              'where the platform publishes the keys its links are signed with (a JSON Web Key Set): each issued link\'s signature must verify with them, in one of "algorithms"',
            ).optional(),
          },
          { error: fieldError('describe the mock link: {"algorithms", "claim", "maxLifetimeSeconds", "unauthorizedStatus", "invalidStatus", "jwksUrl"}') },
        )
        .optional()
        .meta({
          description:
            'what the mock link\'s JWT is; the spec says only "JWT-encoded account information". Default: the emulator\'s (HS256, accountInfo, 600 s)',
        }),
      screens: z
        .strictObject(
          {
            app: locatorSchema.optional().meta({ description: 'the app, once the user is signed on' }),
            error: locatorSchema.optional().meta({ description: 'the error screen' }),
            collect: locatorSchema.optional().meta({ description: 'the screen that collects missing account information' }),
            fieldErrors: z.record(z.string(), locatorSchema).optional().meta({
              description:
                'the error the collection screen shows beside an input, by the spec path of the input ("user.phone": …); default: [data-error-for="<path>"], the emulator\'s',
            }),
            fields: z.record(z.string(), locatorSchema).optional().meta({
              description:
                'the inputs of the collection screen, by the spec path each asks for ("user.phone": …); default: inputs whose data-field (the emulator\'s) or name is the spec path itself',
            }),
            submit: locatorSchema.optional().meta({ description: "the collection screen's button that sends what was typed" }),
            fundingSource: locatorSchema.optional().meta({
              description:
                "each funding source the app shows once the user is signed on: a source is shown where one of these holds its id as an attribute's value, or its id or nickname in its text. Default: [data-funding-source], the emulator's",
            }),
            fundingSourcesLink: locatorSchema
              .optional()
              .meta({ description: 'what to click in the app to see its funding sources, where they are on a screen of their own' }),
          },
          { error: fieldError('describe the screens: {"app", "error", "collect", "fields", "submit", "fundingSource", "fundingSourcesLink"}, each a locator') },
        )
        .optional()
        .meta({
          description:
            'how to find the embedded app\'s screens in its frame, each a Playwright locator: a CSS selector as a string, or {"role", "name"}, {"text"}, {"testId"}. Default: the emulator\'s (main[data-screen=…], input[data-field])',
        }),
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
        .meta({
          description: "the HTTP authentication (Basic, Digest) a platform's sandbox asks the browser for; sent to `origin` only, by default the auth URL's",
        }),
      storeTestData: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({
          description:
            'let the harness store in the platform what a person would not type: a company name carrying markup (the escaping check), example personal data typed into the collection screen, an earlier funding source; the default is true for the emulator only',
        }),
    },
    { error: fieldError('describe the platform: {"url": …, "apiKey": …, "partnerName": …}') },
  )
  .meta({ description: 'the platform whose mock link and embedded app the browser suites drive; without it those suites are skipped' });

export const dataApiSchema = z
  .strictObject(
    {
      baseUrl: httpUrl("the data API's base URL ({base_url} of spec §4.1); the bundled emulator is http://127.0.0.1:4401"),
      token: z
        .string({ error: fieldError('give the Bearer token, usually as env:NAME') })
        .min(1, { error: 'is empty; give the Bearer token' })
        .meta({ description: 'the Bearer token of the data API (spec §5.1)' }),
      organizationField: z
        .string({ error: fieldError("give the name of the field that holds an item's organization") })
        .min(1)
        .optional()
        .meta({
          description:
            'the field of an item that names its organization, which "organizationId" filters by; the spec shows no item\'s fields. Default: organizationId, the emulator\'s',
        }),
      filterRequired: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({
          description:
            'whether a listing other than organizations refuses a request with neither "organizationId" nor "ids" (400); false makes that rule not applicable. Default: true, the emulator\'s',
        }),
      idsEncodings: z
        .array(z.enum(['comma', 'repeated'], { error: 'must be "comma" (ids=a,b) or "repeated" (ids=a&ids=b)' }))
        .min(1)
        .optional()
        .meta({
          description:
            'the encodings of several "ids" the API reads: "comma" (ids=a,b), "repeated" (ids=a&ids=b); the spec leaves it open. Default: both, the emulator\'s',
        }),
      idsWithOrganization: z
        .boolean({ error: fieldError('write true or false') })
        .optional()
        .meta({
          description:
            'whether a listing reads "ids" only beside "organizationId" (spec §4.1 rule 1 leaves which filters each listing needs open): true sends "organizationId" with every "ids" request. Default: false, "ids" alone, the emulator\'s',
        }),
      nonPositiveLimit: z
        .enum(['refused', 'served'], { error: fieldError('must be "refused" (400) or "served" (a page of at most "maxLimit" items)') })
        .optional()
        .meta({
          description:
            'what a "limit" of 0 or -1 gets: "refused" with 400, or "served", a page of at most "maxLimit" items (the default size, say). Default: refused, the emulator\'s',
        }),
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
        .meta({
          description:
            'the status the API refuses a listing without its filter, an invalid "limit" or an unknown "after" with; the spec leaves it open ("Error response body format and HTTP status codes of the data API: not shown"). Default: 400, the emulator\'s',
        }),
      unknownCursor: z
        .enum(['refused', 'empty'], { error: fieldError('must be "refused" (400) or "empty" (an empty last page)') })
        .optional()
        .meta({
          description:
            'what an "after" that is no id of the listing gets: "refused" with 400, or "empty", an empty last page. Default: refused, the emulator\'s',
        }),
    },
    { error: fieldError('describe the data API: {"baseUrl": …, "token": …}') },
  )
  .meta({ description: 'the read-only data API to check (spec §4.1); without it the data-API suite is skipped' });
