import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partner that leaks what it handles, as an outside red team's partners did (issue 50): a proxy in front of a
 * reference partner, written for these self-tests alone, that rewrites the partner's answers. Every code it saw
 * minted and every token it saw issued is kept, for the tests to search every output for.
 */
export interface Leaks {
  /** The mint hook answers 500, or 307 to another host, with the code it just minted in the body. */
  mint?: 500 | 307;
  /** Every token answer is followed by a comment repeating its tokens: JSON that does not parse. */
  tokenComment?: boolean;
  /** A token request without a body (the preflight's) is answered 404 with the code the last mint gave. */
  preflightEcho?: boolean;
  /** A resource's refusal (401) echoes the user's date of birth, `dateOfBirth`, in numbers and in words. */
  dateOfBirth?: string;
  /** Every refusal of the token endpoint echoes the last code minted, whichever client it was minted for. */
  codeEcho?: boolean;
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The forms a date of birth is echoed in: `YYYY-MM-DD`, the documented number forms, and in words. */
export function dateEchoes(iso: string): string[] {
  const [year, month, day] = iso.split('-') as [string, string, string];
  const name = months[Number(month) - 1]!;
  return [
    iso,
    `${year}${month}${day}`,
    `${month}/${day}/${year}`,
    `${day}/${month}/${year}`,
    `${year}/${month}/${day}`,
    `${day}.${month}.${year}`,
    `${name} ${Number(day)}, ${year}`,
    `${Number(day)} ${name} ${year}`,
    `${name.slice(0, 3)} ${Number(day)}, ${year}`,
  ];
}

const body = async (message: IncomingMessage) => {
  let text = '';
  for await (const chunk of message) text += String(chunk);
  return text;
};

export async function startLeakyProxy(target: string, leaks: Leaks) {
  const seen = { codes: [] as string[], tokens: [] as string[] };
  const server = createServer((req, res) => {
    void (async () => {
      const sent = await body(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<
        string,
        string
      >;
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method!,
        headers,
        ...(sent && req.method !== 'GET' ? { body: sent } : {}),
        redirect: 'manual',
      });
      let text = await answer.text();
      let status = answer.status;
      const out: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
      for (const name of ['www-authenticate', 'cache-control', 'pragma', 'location']) if (answer.headers.get(name)) out[name] = answer.headers.get(name)!;
      const path = new URL(req.url!, 'http://x').pathname;
      if (path.endsWith('/test-hooks/codes')) {
        const code = (JSON.parse(text) as { code?: string }).code;
        if (code) seen.codes.push(code);
        if (leaks.mint === 500) status = 500;
        if (leaks.mint === 307) [status, out.location] = [307, `http://127.0.0.9:9/codes?code=${encodeURIComponent(code ?? '')}`];
      } else if (path.endsWith('/oauth/token')) {
        const issued = /"access_token"\s*:\s*"([^"]+)"/.exec(text)?.[1];
        if (issued) seen.tokens.push(issued, ...(/"refresh_token"\s*:\s*"([^"]+)"/.exec(text)?.slice(1) ?? []));
        if (leaks.tokenComment && issued) text = `${text} // token: ${issued}`;
        if (leaks.preflightEcho && sent === '') [status, text] = [404, `{"error":"not_found","last_code":"${seen.codes.at(-1) ?? ''}"}`];
        if (leaks.codeEcho && status >= 400) text = text.replace(/\}\s*$/, `,"last_code_minted":"${seen.codes.at(-1) ?? ''}"}`);
      } else if (leaks.dateOfBirth && status === 401) {
        text = JSON.stringify({ code: 'UNAUTHORIZED', seen: dateEchoes(leaks.dateOfBirth) });
      }
      res.writeHead(status, out);
      res.end(text);
    })().catch((error: unknown) => {
      res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
