/**
 * The fields a body that does not parse as JSON may still hold under their names, so the run learns the secrets
 * among them as it learns those of a body that parses (secrets.ts): JSON followed by a comment or cut short, JSON
 * inside an HTML page or a log line, escaped inside another JSON string (up to three levels) or HTML-escaped, a
 * Python dict (single quotes), a form body, `name="value"` (a log line, an attribute), and a URL's query or
 * fragment in any text, also percent-encoded inside another URL.
 *
 * Linear in the text: one pattern finds each key (a quoted name and a colon, or a name and `=`, each bounded), and
 * the value of a key asked for is read once and skipped over, so no character is read by two values; other keys'
 * values are not read at all (a secret may sit inside one: `"error": "{\"token\": …}"`).
 */

// A quote (JSON's, escaped once to three times, a single quote, HTML-escaped), the name, the same quote, a colon;
// or, where a form or URL parameter starts, a name and "=" (also percent-encoded).
const keyAt = /(\\{0,3}"|'|&quot;|&#34;|&#x22;)([A-Za-z_$][\w.$-]{0,63})\1\s*:\s*|(?:^|[\s?&;#]|%3[Ff]|%2[36])([A-Za-z_$][\w.$-]{0,63})(?:=|%3[Dd])/g;
// A value without quotes: a number, a word, a token.
const bareValue = /[\w.+/=~-]+/y;
// A parameter's value: up to the next parameter, also encoded inside another URL (`%26`).
const paramValue = /(?:(?!%26)[^&#\s"'<>\\])+/y;

/** The end of a quoted value that starts at `from`: its closing quote, or the text's end (a body cut short). */
function closingQuote(text: string, from: number, quote: string): number {
  if (quote !== '"') {
    const at = text.indexOf(quote, from);
    return at === -1 ? text.length : at;
  }
  let at = from;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return Math.min(at, text.length);
}

/** A JSON-escaped value as it was before escaping (`levels` times); as it stands where it is not valid JSON. */
function unescaped(raw: string, levels: number): string {
  let value = raw;
  for (let level = 0; level < levels && value.includes('\\'); level++) {
    try {
      value = JSON.parse(`"${value}"`) as string;
    } catch {
      break;
    }
  }
  return value;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * Calls `found` with each field of `text` whose name `wanted` accepts (the name as written, any case), and its
 * value: unescaped, or percent-decoded for a parameter. A quoted value cut short runs to the text's end.
 */
export function looseFields(text: string, wanted: (name: string) => boolean, found: (name: string, value: string) => void): void {
  const keys = new RegExp(keyAt.source, keyAt.flags);
  for (let match = keys.exec(text); match !== null; match = keys.exec(text)) {
    const [, quote, quotedName, paramName] = match;
    const name = quotedName ?? paramName!;
    if (!wanted(name)) continue;
    const at = keys.lastIndex;
    // A log line's or an attribute's `name="value"` is read as a quoted value.
    const paramQuote = paramName !== undefined && (text[at] === '"' || text[at] === "'") ? text[at] : undefined;
    if (paramName !== undefined && paramQuote === undefined) {
      paramValue.lastIndex = at;
      const value = paramValue.exec(text)?.[0];
      if (value !== undefined) found(name, decoded(value));
      keys.lastIndex = at + (value?.length ?? 0);
    } else if (paramQuote !== undefined || text.startsWith(quote!, at)) {
      const opening = paramQuote ?? quote!;
      const from = at + opening.length;
      const to = closingQuote(text, from, opening);
      found(name, opening.endsWith('"') ? unescaped(text.slice(from, to), opening.length) : text.slice(from, to));
      keys.lastIndex = Math.min(text.length, to + opening.length);
    } else {
      bareValue.lastIndex = at;
      const value = bareValue.exec(text)?.[0];
      if (value !== undefined) found(name, value);
      keys.lastIndex = at + (value?.length ?? 0);
    }
  }
}
