import * as assert from 'node:assert/strict';
import { redactSecrets, redactTarget, REDACTED } from '../../../../src/emulator/core/log';

describe('emulator log redaction', () => {
  it('redacts tokens, codes, verifiers and secrets in query strings and form bodies', () => {
    assert.equal(
      redactSecrets('POST /token?grant_type=authorization_code&code=4%2F0abc&code_verifier=v123&client_secret=s3&redirect_uri=http%3A%2F%2F127.0.0.1'),
      `POST /token?grant_type=authorization_code&code=${REDACTED}&code_verifier=${REDACTED}&client_secret=${REDACTED}&redirect_uri=http%3A%2F%2F127.0.0.1`,
    );
    assert.equal(redactSecrets('GET /x?access_token=abc -> 200'), `GET /x?access_token=${REDACTED} -> 200`);
    assert.equal(redactSecrets('/revoke?token=t1'), `/revoke?token=${REDACTED}`);
    assert.equal(redactSecrets('refresh_token=r1&grant_type=refresh_token'), `refresh_token=${REDACTED}&grant_type=refresh_token`);
    assert.equal(redactSecrets('/x?ACCESS_TOKEN=abc'), `/x?ACCESS_TOKEN=${REDACTED}`);
    assert.equal(redactSecrets('/upload?uploadType=resumable&upload_id=u1'), `/upload?uploadType=resumable&upload_id=${REDACTED}`);
  });

  it('redacts JSON and inspected objects, Authorization values and the emulator token shapes', () => {
    assert.equal(redactSecrets('{"refresh_token":"1//x","client_secret":"s"}'), `{"refresh_token":"${REDACTED}","client_secret":"${REDACTED}"}`);
    assert.equal(redactSecrets("{ input: '/revoke?token=abc' }"), `{ input: '/revoke?token=${REDACTED}' }`);
    assert.equal(redactSecrets('Authorization: Bearer ya29.abc'), `Authorization: Bearer ${REDACTED}`);
    assert.equal(redactSecrets('Basic ZGVzazpzZWNyZXQ='), `Basic ${REDACTED}`);
    assert.equal(redactSecrets('saw ya29.emu-abc and 1//emu-def'), `saw ya29.${REDACTED} and 1//${REDACTED}`);
  });

  it('keeps what is not a secret: other parameters, similar names, error codes', () => {
    assert.equal(redactSecrets('GET /tasks/v1/lists?maxResults=5&encode=1&codeword=2'), 'GET /tasks/v1/lists?maxResults=5&encode=1&codeword=2');
    assert.equal(redactSecrets("{ code: 'ERR_INVALID_URL' }"), "{ code: 'ERR_INVALID_URL' }");
    assert.equal(redactSecrets('GET /drive/v2/files/abc -> 404'), 'GET /drive/v2/files/abc -> 404');
  });

  it('reads query names the way the server does: percent-encoded credential names are redacted too', () => {
    // The server decodes `access%5Ftoken` to access_token and accepts the token: the log must not show it.
    for (const name of ['access%5Ftoken', '%61ccess_token', 'ACCESS%5FTOKEN', 'key', 'api%5Fkey', 'id_token', 'client%5Fsecret', 'code%5Fverifier', 'refresh_token']) {
      const line = redactSecrets(`GET /calendar/v3/x?alt=json&${name}=ya29%2Eemu-SECRET1 -> 200`);
      assert.equal(line.includes('SECRET1'), false, line);
      assert.equal(line.includes(`${name}=${REDACTED}`), true, line);
    }
    // The whole pair percent-encoded (`=` as %3D) and Google-shaped tokens written with %2E / %2F.
    assert.equal(redactSecrets('/x?access_token%3Dabc').includes('abc'), false);
    assert.equal(redactSecrets('saw ya29%2Eemu-abc and 1%2F%2Fdef and 4%2F0ghi'), `saw ya29%2E${REDACTED} and 1%2F%2F${REDACTED} and 4%2F0${REDACTED}`);
  });

  it('redacts credential headers, as header lines and as inspected header objects', () => {
    assert.equal(redactSecrets('Cookie: SID=abc; HSID=def'), `Cookie: ${REDACTED}`);
    assert.equal(redactSecrets('request failed\n  x-goog-api-key: AIzaSECRET\n  accept: */*'), `request failed\n  x-goog-api-key: ${REDACTED}\n  accept: */*`);
    const inspected = redactSecrets("{ headers: { authorization: 'Bearer ya29.SECRET2', cookie: 'SID=SECRET3', accept: 'json' } }");
    assert.equal(/SECRET2|SECRET3/.test(inspected), false, inspected);
    assert.match(inspected, /accept: 'json'/);
  });

  it('logs a request target with its query decoded: credentials nested in values and control characters cannot hide', () => {
    const line = redactTarget('/x?next=%2Fy%3Faccess_token%3DSECRET4&access%5Ftoken=SECRET5&note=a%0Ab');
    assert.equal(/SECRET4|SECRET5/.test(line), false, line);
    assert.equal(line.includes('\n'), false, 'a decoded newline would start a forged log line');
    assert.match(line, /note=a\\x0ab/);
  });
});

