import * as assert from 'node:assert/strict';
import { redactSecrets, REDACTED } from '../../../../src/emulator/core/log';

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
});
