/** Unit rules of the channel registry and delivery: expiration arithmetic, receiver statuses, backoff, resource ids, and the local CA's certificates. */
import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { backoffMs, DEFAULT_DELIVERY, messageEtag, outcomeOf } from '../../../../src/emulator/core/channelDelivery';
import { CertificateAuthority, selfSignedCertificate } from '../../../../src/emulator/core/certificates';
import { expirationOf, resourceIdOf } from '../../../../src/emulator/core/channels';
import { ApiError } from '../../../../src/emulator/core/errors';

describe('channel rules', () => {
  const now = 1_700_000_000_000;
  const resource = { maxTtlMs: 6 * 3600_000 };

  it('takes the more restrictive of expiration, params.ttl (seconds) and the service maximum', () => {
    assert.equal(expirationOf(undefined, undefined, resource, now), now + resource.maxTtlMs);
    assert.equal(expirationOf(undefined, undefined, { ...resource, defaultTtlMs: 3600_000 }, now), now + 3600_000);
    assert.equal(expirationOf(String(now + 60_000), undefined, resource, now), now + 60_000);
    assert.equal(expirationOf(now + 100 * 3600_000, undefined, resource, now), now + resource.maxTtlMs);
    assert.equal(expirationOf(String(now + 600_000), '60', resource, now), now + 60_000);
    assert.equal(expirationOf(String(now + 30_000), '60', resource, now), now + 30_000);
    assert.equal(expirationOf(undefined, '99999999', resource, now), now + resource.maxTtlMs);
    for (const [expiration, ttl] of [[String(now - 1), undefined], ['soon', undefined], [undefined, '-5'], [undefined, '0'], [undefined, '1.5']] as const) {
      assert.throws(() => expirationOf(expiration, ttl, resource, now), (error: unknown) => error instanceof ApiError && error.code === 400);
    }
  });

  it('maps receiver statuses as the spec table does', () => {
    for (const status of [200, 201, 202, 204, 102]) assert.equal(outcomeOf(status), 'delivered');
    for (const status of [500, 502, 503, 504]) assert.equal(outcomeOf(status), 'retry');
    for (const status of [301, 400, 401, 404, 410, 429, 501]) assert.equal(outcomeOf(status), 'failed');
  });

  it('backs off exponentially, bounded', () => {
    assert.deepEqual([1, 2, 3, 4].map((attempt) => backoffMs(attempt, DEFAULT_DELIVERY)), [500, 1000, 2000, 4000]);
    assert.equal(backoffMs(20, DEFAULT_DELIVERY), DEFAULT_DELIVERY.maxDelayMs);
  });

  it('gives a resource one opaque resourceId, and a message an etag unlike the resource etag', () => {
    assert.equal(resourceIdOf('directory/users/C0desk01'), resourceIdOf('directory/users/C0desk01'));
    assert.notEqual(resourceIdOf('drive/files/a'), resourceIdOf('drive/files/b'));
    assert.doesNotMatch(resourceIdOf('drive/files/a'), /drive|files/);
    assert.notEqual(messageEtag('c', 2, '"abc"'), '"abc"');
    assert.notEqual(messageEtag('c', 2, '"abc"'), messageEtag('c', 3, '"abc"'));
  });
});

describe('the local certificate authority', function () {
  this.timeout(20_000);

  it('issues receiver certificates that chain to it and name their hosts; self-signed ones do not', () => {
    const ca = CertificateAuthority.create();
    const caCert = new X509Certificate(ca.certPem);
    assert.equal(caCert.ca, true);
    const leaf = new X509Certificate(ca.issue({ hosts: ['127.0.0.1', 'localhost'] }).cert);
    assert.equal(leaf.ca, false);
    assert.equal(leaf.verify(caCert.publicKey), true);
    assert.equal(leaf.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(leaf.checkHost('localhost'), 'localhost');
    assert.equal(leaf.checkHost('example.org'), undefined);
    const self = new X509Certificate(selfSignedCertificate({ hosts: ['127.0.0.1'] }).cert);
    assert.equal(self.verify(caCert.publicKey), false);
    const expired = new X509Certificate(ca.issue({ hosts: ['127.0.0.1'], notBefore: new Date(Date.now() - 2 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }).cert);
    assert.ok(Date.parse(expired.validTo) < Date.now());
  });
});
