import { expect, test } from '@playwright/test';
import { jsonResponse, type Exchange, type ResponseRecord } from '../../checks/evidence';
import { bodyJsonObject } from '../../checks/token-response';
import { redact, redactEvidence } from '../../redaction/redact';
import { secretsOf } from '../../redaction/secrets';

/**
 * Issue 50, item 3: every value the run can know is known before anything is written. Each case plants a value a
 * partner's answer carries where the run did not look for it, and shows it masked once the run has learned it.
 */

/** Every run of 10 characters of `value` that `text` still holds, in any case. */
const left = (text: string, value: string) =>
  Array.from({ length: Math.max(1, value.length - 9) }, (_, at) => value.slice(at, at + 10).toLowerCase()).filter((run) => text.toLowerCase().includes(run));

const answered = (
  response: Omit<ResponseRecord, 'bytes'>,
  request: Exchange['request'] = { method: 'POST', url: 'https://p.example/oauth/token', headers: {} },
) => ({
  request,
  response: { ...response, bytes: response.body.length },
  startedAt: '',
  durationMs: 1,
});

test.describe('3. tokens in an answer that does not parse as JSON', () => {
  const token = 'at-9Kq2Lw7Rt4Vz1Xy8Mn3Bp6';
  const refresh = 'rt-4Hc8Jd2Ke6Lf0Mg7Nh5Pq1';
  const bodies: Record<string, string> = {
    'JSON followed by a comment repeating the token': `{"access_token":"${token}","token_type":"Bearer"} // token: ${token}`,
    'JSON cut short inside the refresh token': `{"access_token":"${token}","refresh_token":"${refresh}`,
    'JSON inside an HTML page': `<html><body><p>Issued</p><pre>{"access_token": "${token}", "refresh_token": "${refresh}"}</pre> ${token}</body></html>`,
    'HTML-escaped JSON inside an HTML page': `<p>{&quot;access_token&quot;:&quot;${token}&quot;}</p><!-- ${token} -->`,
    'a Python dict': `{'access_token': '${token}', 'refresh_token': '${refresh}'} issued ${token}`,
    'form pairs inside a page': `<p>Issued: access_token=${token}&refresh_token=${refresh}&token_type=bearer</p><!-- ${token} -->`,
    'a log line': `issued: access_token="${token}" for client reference-client; ${token}`,
  };
  for (const [what, body] of Object.entries(bodies)) {
    test(what, () => {
      const exchange = answered({ status: 200, headers: { 'content-type': 'application/json' }, body });
      const secrets = secretsOf([exchange]);
      // The rule's message quotes the body's start or end; the HAR and the certification hold it whole.
      const message = bodyJsonObject.check(jsonResponse(exchange.response), undefined)[0]?.message ?? '';
      const written = `${message}\n${JSON.stringify(redactEvidence([exchange], secrets))}`;
      expect(left(redact(written, secrets), token)).toEqual([]);
      if (body.includes(refresh)) expect(left(redact(written, secrets), refresh)).toEqual([]);
    });
  }

  test('the control: a body\'s words stay, and an answer\'s "code" is still an error code', () => {
    const body = '{"code":"MISSING_FILTER_ORGANIZATION","message":"token_type Bearer expected"} trailing';
    const secrets = secretsOf([answered({ status: 400, headers: {}, body })]);
    expect(secrets).toEqual([]);
    expect(redact(body, secrets)).toBe(body);
  });

  test('a JSON string holding fields, in a body that parses', () => {
    const body = JSON.stringify({ error: 'upstream_failed', detail: `upstream answered {"access_token": "${token}"}`, seen: token });
    expect(left(redact(body, secretsOf([answered({ status: 502, headers: {}, body })])), token)).toEqual([]);
  });
});

test.describe('5. values an answer carries outside its body', () => {
  test("a session cookie a partner endpoint sets, and a code or token in a redirect's Location", () => {
    const [session, code, token] = ['s3ss10n-Kq2Lw7Rt4Vz', 'l0cat10n-c0de-Wq8Zt', 'fr4gment-t0ken-Mn3Bp'];
    const exchange = answered({
      status: 302,
      headers: { 'set-cookie': `sid=${session}; Path=/; HttpOnly\nlang=en`, location: `https://app.example/cb?code=${code}#access_token=${token}` },
      body: `see ${session} ${code} ${token}`,
    });
    const secrets = secretsOf([exchange]);
    expect(secrets.map((secret) => secret.value)).toEqual([session, code, token]);
    expect(redact(JSON.stringify(exchange), secrets)).not.toMatch(new RegExp(`${session}|${code}|${token}`));
  });

  test('a token under a camel-case name is learned, and masked by shape where the run never saw it', () => {
    const token = 'camel-t0ken-Kq2Lw7Rt4Vz';
    const body = JSON.stringify({ accessToken: token, idToken: `${token}-id`, note: token });
    expect(redact(body, secretsOf([answered({ status: 200, headers: {}, body })]))).not.toContain(token.slice(0, 12));
    expect(redact('{"accessToken":"never-seen-0123456789"} #access_token=never-seen-too-0123', [])).toBe(
      '{"accessToken":"[redacted]"} #access_token=[redacted]',
    );
  });
});
