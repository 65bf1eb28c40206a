/**
 * HTML for the sandbox's pages. Every interpolation into `html` is escaped unless it is itself `html`
 * (or `unsafeRaw`), so partner data cannot become markup by forgetting a call.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => entities[c]!);

type Interpolated = Html | string | number | undefined | null | false | readonly Interpolated[];

const render = (value: Interpolated): string => {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
};

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  return new Html(strings.reduce((out, string, i) => out + string + (i < values.length ? render(values[i]) : ''), ''));
}

/**
 * A stylesheet of the harness's own, in a <style> element. Its text is not escaped: entities are not decoded in
 * CSS, so an escaped `[data-verdict="NOT CHECKED"]` or `ol>li` would be a selector that matches nothing.
 */
export const styleSheet = (css: string) => new Html(`<style>${css.replace(/<\//g, '<\\/')}</style>`);

/** Markup taken as is: only for the emulator's `unescaped-html` fault. */
export const unsafeRaw = (text: string) => new Html(text);

/** JSON inside an inline <script>: `<` is escaped so a value cannot close the script element. */
export const scriptJson = (value: unknown) => new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
