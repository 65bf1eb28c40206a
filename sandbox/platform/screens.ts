import type { Field } from '../../checks/payload';
import { html, scriptJson, type Html } from '../../html/template';

/**
 * The embedded web app's screens. Each is `<main data-screen="error|collect|app">`, so a test (or a
 * person) can tell them apart; partner data only ever enters through `html`, which escapes it.
 */

/** DESIGN §5 "Messages to the host". */
export type HostMessage =
  { type: 'AUTHENTICATION_ERROR'; messageId: string; reason: string; message: string } | { type: 'NAVIGATED_TO_TARGET'; messageId: string; target: string };

export interface Page {
  nonce: string;
  /** Posted to the host window on load, to `targetOrigin`. */
  message?: HostMessage;
  targetOrigin?: string;
  /** Posted this long after load, as a single-page app posts after a fetch of its own (the "posts-late" variation). */
  postDelayMs?: number;
}

const style = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2733;background:#f6f8fa}
main{max-width:40rem;margin:0 auto;padding:1.25rem}h1{font-size:1.3rem;margin:.2rem 0 1rem}
.card{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:1rem;margin-bottom:1rem}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}input{font:inherit;padding:.35rem;width:100%;box-sizing:border-box}
.error{color:#b42318;font-size:.9rem;margin:.2rem 0}button{font:inherit;margin-top:1rem;padding:.45rem 1rem}
.reason{font-family:ui-monospace,monospace;color:#b42318}ul{padding-left:1.2rem}.muted{color:#57606a;font-size:.9rem}`;

function page(title: string, body: Html, { nonce, message, targetOrigin, postDelayMs = 0 }: Page): string {
  const post =
    message &&
    targetOrigin &&
    html`<script nonce="${nonce}">if (window.parent !== window) setTimeout(() => window.parent.postMessage(${scriptJson(message)}, ${scriptJson(targetOrigin)}), ${String(postDelayMs)});</script>`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title} – Payments</title><style nonce="${nonce}">${style}</style></head><body>${body}${post}</body></html>`.text;
}

/** The "blank-app" fault: a page that loads, with no screen and no message. */
export const blankScreen = ({ nonce }: Pick<Page, 'nonce'>) => page('Payments', html`<div class="card">Loading…</div>`, { nonce });

export function errorScreen(reason: string, problems: readonly string[], options: Page): string {
  return page(
    'Sign-in failed',
    html`<main data-screen="error"><h1>We couldn't sign you in</h1>
<div class="card"><p>Your account information could not be used. Please contact support of the app you came from.</p>
<p class="reason" data-reason>${reason}</p>${problems.length > 0 && html`<ul data-problems>${problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}</div></main>`,
    options,
  );
}

const labels: Record<string, string> = {
  'user.firstName': 'First name',
  'user.lastName': 'Last name',
  'user.phone': 'Phone',
  'user.dateOfBirth': 'Date of birth (YYYY-MM-DD)',
  'company.name': 'Business name',
};
const addressParts: Record<string, string> = { line1: 'street and house number', city: 'city', state: 'state (2 letters)', postalcode: 'ZIP code' };

/** A field's label: "Business address: city". */
export function labelOf(path: string): string {
  const address = /^company\.(address|legalAddress)\.(\w+)$/.exec(path);
  if (address) return `${address[1] === 'address' ? 'Business address' : 'Legal address'}: ${addressParts[address[2]!] ?? address[2]}`;
  return labels[path] ?? path;
}

export function collectScreen(fields: readonly Field[], typed: Record<string, string>, problems: Record<string, string>, csrf: string, options: Page): string {
  const inputs = fields.map(({ path }) => {
    const id = `field-${path.replace(/\W/g, '-')}`;
    return html`<label for="${id}">${labelOf(path)}</label><input id="${id}" name="${path}" value="${typed[path] ?? ''}" data-field="${path}"${problems[path] ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${problems[path] && html`<p class="error" id="${id}-error" data-error-for="${path}">${problems[path]}</p>`}`;
  });
  return page(
    'Complete your details',
    html`<main data-screen="collect"><h1>Complete your details</h1>
<form class="card" method="post" action="collect" novalidate><p class="muted">Your app did not share these details. Please type them to continue.</p>
${inputs}<input type="hidden" name="csrf" value="${csrf}"><button type="submit">Continue</button></form></main>`,
    options,
  );
}

export interface AppView {
  user: { name: string; email: string };
  company: Html | string;
  sources: readonly { id: string; nickname?: string; last4?: string }[];
  sync: { added: readonly string[]; removed: readonly string[]; notice?: string };
}

export function appScreen({ user, company, sources, sync }: AppView, options: Page): string {
  const list = sources.map(
    (source) =>
      html`<li data-funding-source="${source.id}">${source.nickname ?? 'Bank account'} <span class="muted">•••• ${source.last4 ?? '????'}</span></li>`,
  );
  return page(
    'Bills',
    html`<main data-screen="app"><h1>Bills and payments</h1>
<div class="card"><p>Signed in as <strong data-user-name>${user.name}</strong> <span class="muted">${user.email}</span></p>
<p>Company: <strong data-company-name>${company}</strong></p></div>
<div class="card"><h2>Pay from</h2>${sources.length > 0 ? html`<ul data-funding-sources>${list}</ul>` : html`<p data-funding-sources>No funding sources.</p>`}
<p class="muted" data-sync>This sign-in added ${sync.added.length} and removed ${sync.removed.length} funding source${sync.removed.length === 1 ? '' : 's'}.${sync.notice ? ` ${sync.notice}` : ''}</p></div></main>`,
    options,
  );
}
