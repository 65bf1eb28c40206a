import { z } from 'zod';
import { dataApiSchema, platformSchema } from './platform-schema';
import { browserStep, codesSchema, fieldError, httpOrigin, httpUrl, locatorSchema, optionalText } from './schema-fields';

export type { LocatorSpec } from './schema-fields';

/**
 * A partner profile: `partners/<name>.json` (or `$PARTNERS_DIR/<name>.json`) becomes the Playwright
 * project `<name>`. The field names are fixed: certification teams script against them.
 */

const partnerAppSchema = z
  .strictObject(
    {
      page: httpUrl("the page of the partner's app that embeds the platform in an iframe"),
      login: z.array(browserStep).optional().meta({ description: 'the goto/fill/click steps that sign a test user in to the app first, as in codes.browser' }),
      frame: locatorSchema.optional().meta({ description: 'the iframe that holds the platform; default: the first iframe' }),
      authError: locatorSchema.optional().meta({
        description:
          'what the page shows when the platform says sign-on failed: with it, the harness checks that the page acts on no message from another origin',
      }),
    },
    { error: fieldError('describe the partner\'s app: {"page", "login", "frame", "authError"}') },
  )
  .meta({
    description: "the partner's own app, whose page embeds the platform: the harness lets it embed the platform and judges the page (needs a platform block)",
  });

export const profileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    tokenExchangeUrl: httpUrl("the partner's token exchange URL (TokenExchangeUrl)"),
    accountInfoUrl: httpUrl("the partner's account information URL (AccountInfoUrl)"),
    fundingSourcesUrl: httpUrl("the partner's funding sources URL (FundingSourcesUrl), if the partner has one").optional(),
    issuer: httpUrl(
      "the partner's OAuth issuer, if it publishes a discovery document (RFC 8414 or OpenID Connect Discovery): the run reads the document and holds it against what the token endpoint does",
    ).optional(),
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
      .meta({
        description:
          'the body encoding the platform is configured to send this partner\'s token requests in (spec §4.2): "form" (RFC 6749 §4.1.3, what OAuth libraries accept) or "json". That encoding must issue a token (MUST); the other is tried and noted (INFO)',
      }),
    codes: codesSchema,
    fundingSync: z
      .strictObject(
        {
          mintUrl: httpUrl(
            'a test hook like codes.mintUrl: a POST with no body answers {"code": "…"} for the same test user, whose funding sources then list one fewer than its codes.mintUrl codes do',
          ),
        },
        { error: fieldError('give {"mintUrl": …}: a test hook whose codes sign on the same user with one funding source fewer') },
      )
      .optional()
      .meta({
        description:
          "spec §4.2's removal rule, on any platform: the partner's way to list one funding source fewer for the test user, so the harness can see the platform remove it at the next sign-on. Without it, the funding sync is judged on the bundled emulator only (by planting a source there), and is not checked elsewhere",
      }),
    platform: platformSchema.optional(),
    partnerApp: partnerAppSchema.optional(),
    dataApi: dataApiSchema.optional(),
    environment: z
      .enum(['staging', 'production'], { error: fieldError('must be "staging" or "production"') })
      .default('staging')
      .meta({
        description:
          'what the profile points at: "production" makes any plain http:// endpoint a failure (nothing is sent to it), where "staging" allows http:// for a test server',
      }),
    caFile: z
      .string({ error: fieldError('give the path of a PEM file') })
      .min(1)
      .optional()
      .meta({ description: "a PEM file of CA certificates to trust besides the system's (a private CA), relative to the profile file" }),
    slowChecks: z
      .boolean({ error: fieldError('give true or false') })
      .default(false)
      .meta({
        description:
          'run the opt-in checks that take long: the code-lifetime check holds a code for 10 min 5 s before redeeming it. `npm run certify -- <partner> --slow` turns it on for one run',
      }),
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
  const {
    tokenExchangeUrl,
    accountInfoUrl,
    fundingSourcesUrl,
    clientId,
    clientSecret,
    scope,
    collectMissingAccountInfo,
    tokenExchangeEncoding,
    requestTimeoutMs,
  } = profile;
  const hostOrigin = profile.platform.hostOrigin ?? new URL(profile.platform.hostPageUrl).origin;
  return {
    tokenExchangeUrl,
    accountInfoUrl,
    fundingSourcesUrl,
    clientId,
    clientSecret,
    scope,
    collectMissingAccountInfo,
    tokenExchangeEncoding,
    requestTimeoutMs,
    hostOrigin,
  };
}
export type BrowserCodes = NonNullable<Profile['codes']['browser']>;
export type PlatformProfile = NonNullable<Profile['platform']>;
