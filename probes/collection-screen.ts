import type { FrameLocator, Locator, Page } from '@playwright/test';
import type { Visit } from '../checks/sign-on-visit';
import type { LocatorSpec } from '../profile/profile-schema';
import { frameOf, hostPageFor, locate, observe, screenTimeoutMs, type Session } from './browser-session';
import type { Platform } from './platform';
import { navigate } from './unrecorded';

/** What a user types on the collection screen: valid values for every Yes* string field (spec §2.3). */
const typedExamples: Record<string, string> = {
  'user.firstName': 'Ada',
  'user.lastName': 'Lovelace',
  'user.phone': '212-555-0142',
  'user.dateOfBirth': '1985-12-10',
  'company.name': 'Analytical Engines LLC',
  line1: '12 Main Street',
  city: 'Springfield',
  state: 'IL',
  postalcode: '62701',
};
export const exampleFor = (path: string) => typedExamples[path] ?? typedExamples[path.slice(path.lastIndexOf('.') + 1)] ?? 'Example';

/** Types values into the collection screen and submits it; the screen it leaves is marked stale for `observe`. */
export async function fillCollection(page: Page, platform: Platform, values: Record<string, string>, frame = frameOf(page)) {
  await locate(frame, platform.screens.collect)
    .first()
    .evaluate((screen) => screen.setAttribute('data-stale', ''), undefined, { timeout: screenTimeoutMs });
  for (const [path, value] of Object.entries(values))
    // The harness's own made-up values (typedExamples): no one's data, nothing to keep out of the reports.
    // eslint-disable-next-line no-restricted-syntax
    await fieldLocator(frame, platform, path).fill(value, { timeout: screenTimeoutMs });
  await locate(frame, platform.screens.submit).first().click({ timeout: screenTimeoutMs });
}

const fieldLocator = (frame: FrameLocator, platform: Platform, path: string) => {
  const spec = platform.screens.fields?.[path];
  return spec === undefined ? frame.locator(`input[name="${path}"]`) : locate(frame, spec).first();
};

/**
 * The spec paths the collection screen asks for: by the profile's map of its inputs, else by each input's
 * `data-field` (the emulator's) or a `name` that is a spec path (`user.phone`), as the form is filled.
 */
export async function fieldsOnScreen(page: Page, platform: Platform, frame = frameOf(page)): Promise<string[]> {
  const { fields } = platform.screens;
  if (fields === undefined) {
    const named = await frame
      .locator('input[data-field], input[name]')
      .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-field') ?? input.getAttribute('name') ?? ''));
    return named.filter((path) => /^(user|company)\.[A-Za-z0-9.]+$/.test(path));
  }
  return (await shownByPath(frame, fields)).map(([path]) => path);
}

/** The entries of a profile's map of locators by spec path whose element the frame shows now. */
async function shownByPath(frame: FrameLocator, map: Record<string, LocatorSpec>): Promise<(readonly [string, Locator])[]> {
  const entries = await Promise.all(
    Object.entries(map).map(async ([path, spec]) => {
      const element = locate(frame, spec).first();
      return (await element.isVisible()) ? [[path, element] as const] : [];
    }),
  );
  return entries.flat();
}

/** The errors shown beside the collection screen's inputs, by spec path: by the profile's locators, or the emulator's data-error-for. */
export async function fieldErrorsOnScreen(page: Page, platform: Platform): Promise<Record<string, string>> {
  const frame = frameOf(page);
  const { fieldErrors } = platform.screens;
  if (fieldErrors === undefined) {
    return Object.fromEntries(
      await frame
        .locator('[data-error-for]')
        .evaluateAll((items) => items.map((item) => [item.getAttribute('data-error-for') ?? '', item.textContent ?? ''] as const)),
    );
  }
  const shown = await Promise.all((await shownByPath(frame, fieldErrors)).map(async ([path, error]) => [path, (await error.innerText()).trim()] as const));
  return Object.fromEntries(shown.filter(([, text]) => text !== ''));
}

export const examplesFor = (fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, exampleFor(field)]));

/** What the frame shows once sign-on settled: where the collection screen comes, the user types valid values, as a real one would, and the screen after it is read. */
export async function observeSignedOn(
  page: Page,
  platform: Platform,
  { frame = frameOf(page), beforeFill, messageWaitMs }: { frame?: FrameLocator; beforeFill?: () => Promise<void>; messageWaitMs?: number } = {},
): Promise<Visit> {
  const options = { frame, ...(messageWaitMs === undefined ? {} : { messageWaitMs }) };
  const visit = await observe(page, platform, options);
  if (visit.screen !== 'collect') return visit;
  await beforeFill?.();
  await fillCollection(page, platform, examplesFor(await fieldsOnScreen(page, platform, frame)), frame);
  return observe(page, platform, options);
}

export async function signOn(session: Session, platform: Platform, src: string, shot: string): Promise<Visit> {
  await navigate(session.page, hostPageFor(platform.hostPageUrl, src));
  const visit = await observeSignedOn(session.page, platform, { beforeFill: () => session.shoot(`${shot}-collect`) });
  await session.shoot(`${shot}-${visit.screen}`);
  return visit;
}
