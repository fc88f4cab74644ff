/**
 * The emulator's local certificate authority and trust: it issues receiver certificates for channel addresses,
 * decides which certificates the emulator trusts (its own CA, the system store, `--trust-ca` files), and checks a
 * receiver's certificate over TLS at watch time.
 */
import { generateKeyPair, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import * as fs from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';
import * as tls from 'node:tls';
import * as forge from 'node-forge';
import { ApiError } from './errors';

/** A certificate and its private key, both PEM. */
export interface IssuedCertificate {
  cert: string;
  key: string;
}

export interface IssueOptions {
  /** DNS names and IP addresses the certificate is valid for (subjectAltName). */
  hosts: readonly string[];
  notBefore?: Date;
  notAfter?: Date;
}

/** Where a durable CA lives inside the data directory. */
export const CA_FOLDER = 'ca';
export const CA_CERT_FILE = 'desk-emulator-ca.pem';
const CA_KEY_FILE = 'desk-emulator-ca-key.pem';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Receiver certificates are valid for a year; the CA for ten. */
const LEAF_DAYS = 365;
const CA_DAYS = 3650;

type KeyPair = { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; privatePem: string };

const RSA_OPTIONS = {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
} as const;

/** RSA keys from Node's crypto (fast, native), converted for node-forge, which builds and signs the certificates. */
function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', RSA_OPTIONS);
  return forgeKeys(privateKey, publicKey);
}

/** The same, made on libuv's thread pool: a 2048-bit key takes 100-300 ms, which the event loop would wait for. */
function newKeyPairAsync(): Promise<KeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', RSA_OPTIONS, (error, publicKey, privateKey) => {
      if (error) reject(error);
      else resolve(forgeKeys(privateKey, publicKey));
    });
  });
}

function forgeKeys(privatePem: string, publicPem: string): KeyPair {
  return { privateKey: forge.pki.privateKeyFromPem(privatePem), publicKey: forge.pki.publicKeyFromPem(publicPem), privatePem };
}

/** Signs with Node's native RSA (SHA-256) what forge would sign in JavaScript (~50 ms of the event loop per certificate). */
function signNatively(cert: forge.pki.Certificate, keyPem: string): void {
  cert.signatureOid = forge.pki.oids.sha256WithRSAEncryption;
  cert.siginfo.algorithmOid = cert.signatureOid;
  // forge's own step (pki.getTBSCertificate), which its type declarations leave out.
  const tbs = (forge.pki as typeof forge.pki & { getTBSCertificate(certificate: forge.pki.Certificate): forge.asn1.Asn1 }).getTBSCertificate(cert);
  (cert as forge.pki.Certificate & { tbsCertificate: forge.asn1.Asn1 }).tbsCertificate = tbs;
  cert.signature = sign('sha256', Buffer.from(forge.asn1.toDer(tbs).getBytes(), 'binary'), keyPem).toString('binary');
}

function serialNumber(): string {
  // Positive (leading bit clear) and unique enough for a local CA.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]) & 0x7f;
  return bytes.toString('hex');
}

function subjectAltNames(hosts: readonly string[]): { type: number; value?: string; ip?: string }[] {
  return hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host }));
}

/** A certificate signed by its own key: what receivers must not present (tests use it to show the refusal). */
export function selfSignedCertificate(options: IssueOptions): IssuedCertificate {
  const keys = newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + LEAF_DAYS * DAY_MS);
  const attributes = [{ name: 'commonName', value: options.hosts[0] ?? 'localhost' }];
  cert.setSubject(attributes);
  cert.setIssuer(attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: subjectAltNames(options.hosts) },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keys.privatePem };
}

/** A certificate authority: its certificate is what clients are given to trust; it signs receiver certificates. */
export class CertificateAuthority {
  private constructor(readonly certPem: string, private readonly keyPem: string) {}

  /** A new CA (in memory until `save`). */
  static create(commonName = 'Desk Emulator Local CA'): CertificateAuthority {
    const keys = newKeyPair();
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = serialNumber();
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + CA_DAYS * DAY_MS);
    const attributes = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'Desk emulator' }];
    cert.setSubject(attributes);
    cert.setIssuer(attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    return new CertificateAuthority(forge.pki.certificateToPem(cert), keys.privatePem);
  }

  /** The CA of a data directory, created there on first use (the key readable by the owner only). */
  static openOrCreate(dataDir: string): CertificateAuthority {
    const folder = path.join(dataDir, CA_FOLDER);
    const certFile = path.join(folder, CA_CERT_FILE);
    const keyFile = path.join(folder, CA_KEY_FILE);
    if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
      return new CertificateAuthority(fs.readFileSync(certFile, 'utf8'), fs.readFileSync(keyFile, 'utf8'));
    }
    const ca = CertificateAuthority.create();
    fs.mkdirSync(folder, { recursive: true });
    // Key first, then the certificate: a crash in between leaves no certificate without its key.
    fs.writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
    fs.writeFileSync(certFile, ca.certPem);
    return ca;
  }

  /** A receiver certificate for `hosts`, signed by this CA. */
  issue(options: IssueOptions): IssuedCertificate {
    return this.issueWith(options, newKeyPair());
  }

  /** The same, without holding the event loop while the key is made (the emulator's certificate route). */
  async issueAsync(options: IssueOptions): Promise<IssuedCertificate> {
    return this.issueWith(options, await newKeyPairAsync());
  }

  private issueWith(options: IssueOptions, keys: KeyPair): IssuedCertificate {
    if (options.hosts.length === 0) throw new Error('a certificate needs at least one host');
    const caCert = forge.pki.certificateFromPem(this.certPem);
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = serialNumber();
    cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
    cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + LEAF_DAYS * DAY_MS);
    cert.setSubject([{ name: 'commonName', value: options.hosts[0] }]);
    cert.setIssuer(caCert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: subjectAltNames(options.hosts) },
      { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    ]);
    signNatively(cert, this.keyPem);
    return { cert: forge.pki.certificateToPem(cert), key: keys.privatePem };
  }
}

/** Reads `--trust-ca` files (PEM, one or more certificates each); a missing or malformed file is an error at startup. */
export function readTrustedCaFiles(files: readonly string[]): string[] {
  return files.map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    if (!/-----BEGIN CERTIFICATE-----/.test(text)) throw new Error(`--trust-ca ${file}: no PEM certificate in it`);
    return text;
  });
}

/** The certificates the emulator trusts when it talks to receivers: its own CA, the system store and any extra CAs. */
export function trustedCertificates(ca: CertificateAuthority, extra: readonly string[]): string[] {
  return [ca.certPem, ...tls.rootCertificates, ...extra];
}

/** One TLS context over the trusted certificates: parsing the system store per connection would dominate. */
export function trustContext(certificates: readonly string[]): tls.SecureContext {
  return tls.createSecureContext({ ca: [...certificates] });
}

/** Why a TLS error makes an address unusable, in words a developer can act on. */
function certificateProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'its certificate is self-signed';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_SIGNATURE_FAILURE':
      return 'its certificate is not issued by an authority the emulator trusts (use a certificate from `desk-emulator cert`, or start the emulator with --trust-ca)';
    case 'CERT_HAS_EXPIRED':
      return 'its certificate has expired';
    case 'CERT_NOT_YET_VALID':
      return 'its certificate is not valid yet';
    case 'CERT_REVOKED':
      return 'its certificate is revoked';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'its certificate does not name this host';
    case 'ECONNREFUSED':
      return 'nothing accepts connections there, so its certificate cannot be checked';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ETIMEDOUT':
      return 'it did not answer in time, so its certificate cannot be checked';
    default:
      return `its TLS handshake failed (${error.code ?? error.message})`;
  }
}

/**
 * Connects to the address over TLS and checks its certificate as delivery will: chain to a trusted CA, validity
 * dates, host name. Resolves when the certificate is valid; otherwise a 400 naming the problem. `connectTo` is the
 * IP address the watch network check resolved the host to: the connection goes there, and nowhere else.
 */
export function checkReceiverCertificate(address: URL, trust: tls.SecureContext, timeoutMs = 5000, connectTo?: string): Promise<void> {
  const host = address.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = address.port === '' ? 443 : Number(address.port);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: NodeJS.ErrnoException): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (!error) { resolve(); return; }
      reject(new ApiError(400, 'invalid', `Invalid WebHook address ${address.href}: ${certificateProblem(error)}.`, { location: 'address', locationType: 'body' }));
    };
    const socket = tls.connect({
      // The address the network check passed (a name is not resolved again here); the certificate is checked for `host`.
      host: connectTo ?? host,
      port,
      secureContext: trust,
      rejectUnauthorized: true,
      // SNI carries host names only; an IP address is checked against the certificate's IP entries.
      ...(isIP(host) ? {} : { servername: host }),
      ALPNProtocols: ['http/1.1'],
    });
    socket.setTimeout(timeoutMs, () => { finish(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })); });
    socket.once('secureConnect', () => { finish(); });
    socket.once('error', (error: NodeJS.ErrnoException) => { finish(error); });
  });
}
