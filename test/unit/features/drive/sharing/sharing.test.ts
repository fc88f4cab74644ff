import * as assert from 'node:assert/strict';
import { GoogleApiError } from '../../../../../src/api/errors';
import { accessSummary, isInheritedOnly, linkPermissionOf, linkSentence, myRole, peopleOf, permissionRow, sharedWithMeLine } from '../../../../../src/features/drive/sharing/access';
import { emailsProblem, isEmailAddress, parseEmails } from '../../../../../src/features/drive/sharing/emails';
import { explainSharingError } from '../../../../../src/features/drive/sharing/errors';
import { linkRoleOptions, roleInput, roleOf, roleOptions } from '../../../../../src/features/drive/sharing/roles';
import { FOLDER_MIME_TYPE, GOOGLE_DOC_MIME_TYPE, type DrivePermission } from '../../../../../src/shared/schemas/drive';
import { english as t } from '../../../../../src/shared/l10n';
import { formatDay } from '../../../../../src/core/text/clock';

const owner: DrivePermission = { id: '1', type: 'user', role: 'owner', name: 'Alice', emailAddress: 'alice@example.com' };
const person = (name: string, role: string, extra: Partial<DrivePermission> = {}): DrivePermission => ({ id: name, type: 'user', role, name, emailAddress: `${name.toLowerCase()}@example.com`, ...extra });
/** Desk's clock writing a day in London, British English, in late 2026. */
const britishDay = (ms: number): string => formatDay(ms, 'Europe/London', 'en-GB', Date.UTC(2026, 10, 27));
const googleError = (status: number, reason: string, message = 'refused'): GoogleApiError => new GoogleApiError(status, message, reason, [{ reason, message }], undefined);

describe('Drive sharing roles', () => {
  it('reads v2\'s commenter spelling (reader + additionalRoles) and writes it back the same way', () => {
    assert.equal(roleOf({ role: 'reader', additionalRoles: ['commenter'] }), 'commenter');
    assert.equal(roleOf({ role: 'reader' }), 'reader');
    assert.equal(roleOf({ role: 'writer' }), 'writer');
    assert.equal(roleOf({ role: 'somethingNew' }), undefined);
    assert.deepEqual(roleInput('commenter'), { role: 'reader', additionalRoles: ['commenter'] });
    assert.deepEqual(roleInput('reader'), { role: 'reader', additionalRoles: [] }, 'an explicit empty list drops an earlier comment right');
    assert.deepEqual(roleInput('owner'), { role: 'owner' });
  });

  it('offers roles per file type, never owner', () => {
    assert.deepEqual(roleOptions({ mimeType: 'text/plain' }), ['reader', 'commenter', 'writer']);
    assert.deepEqual(roleOptions({ mimeType: FOLDER_MIME_TYPE }), ['reader', 'commenter', 'writer']);
    assert.deepEqual(roleOptions({ mimeType: FOLDER_MIME_TYPE, driveId: 'd1' }), ['reader', 'commenter', 'writer', 'fileOrganizer'], 'content managers only in shared drives');
    assert.deepEqual(roleOptions({ mimeType: 'text/plain', driveId: 'd1' }), ['reader', 'commenter', 'writer']);
    assert.deepEqual(roleOptions({ mimeType: 'application/vnd.google-apps.form' }), ['reader', 'writer'], 'forms take no comments');
    assert.deepEqual(linkRoleOptions({ mimeType: GOOGLE_DOC_MIME_TYPE }), ['reader', 'commenter', 'writer']);
  });
});

describe('Drive sharing e-mail addresses', () => {
  it('splits on commas, semicolons, spaces and lines, reads "Name <address>", lower-cases and de-duplicates', () => {
    assert.deepEqual(parseEmails('bob@example.com, Carol@Example.com;dave@example.org\nBob@example.com'), { emails: ['bob@example.com', 'carol@example.com', 'dave@example.org'], invalid: [] });
    assert.deepEqual(parseEmails('Bob Builder <bob@example.com>, eve@example.com erin@example.com'), { emails: ['bob@example.com', 'eve@example.com', 'erin@example.com'], invalid: [] });
  });

  it('refuses what Drive could not send to', () => {
    for (const bad of ['bob', 'bob@', '@example.com', 'bob@example', 'bob@@example.com', 'bob@exa mple.com', 'a..b@example.com', `${'x'.repeat(65)}@example.com`, 'bob@-example.com']) {
      assert.equal(isEmailAddress(bad), false, bad);
    }
    assert.equal(isEmailAddress('o\'brien+drive@mail.example.co.uk'), true);
    assert.deepEqual(parseEmails('bob@example.com, nope').invalid, ['nope']);
  });

  it('explains the problem in the input box, naming the bad pieces', () => {
    assert.equal(emailsProblem('', t), 'Enter at least one e-mail address.');
    assert.equal(emailsProblem('bob@example.com', t), undefined);
    assert.equal(emailsProblem('bob@example.com, nope', t), '“nope” is not an e-mail address.');
    assert.equal(emailsProblem('x, y@', t), 'These are not e-mail addresses: x, y@');
    // A pasted paragraph is quoted cut, not whole: the message stays readable.
    const pasted = 'lorem-ipsum-dolor-sit-amet'.repeat(80);
    assert.match(emailsProblem(pasted, t) ?? '', /^“lorem-ipsum-dolor-sit-amet.{20,40}…” is not an e-mail address\.$/);
  });
});

describe('Drive access summary', () => {
  it('names the owner and up to three others by role, strongest first, then "and N more"', () => {
    const permissions = [person('Zed', 'reader'), owner, person('Bob', 'writer'), person('Carol', 'reader', { additionalRoles: ['commenter'] }), person('Dan', 'reader'), person('Eve', 'reader')];
    assert.deepEqual(accessSummary(permissions, t), ['Who has access: Alice (Owner), Bob (Editor), Carol (Commenter), Dan (Viewer) and 2 more']);
    assert.deepEqual(accessSummary(permissions, t, { max: 10 }), ['Who has access: Alice (Owner), Bob (Editor), Carol (Commenter), Dan (Viewer), Eve (Viewer), Zed (Viewer)']);
    assert.deepEqual(accessSummary(permissions.slice(0, 2), t, { more: true }), ['Who has access: Alice (Owner), Zed (Viewer) and others'], 'a list with more pages says so');
  });

  it('says when only the owner has access, and when anyone with the link has', () => {
    assert.deepEqual(accessSummary([owner], t), ['Who has access: Alice (Owner)', 'Not shared']);
    const link: DrivePermission = { id: 'anyoneWithLink', type: 'anyone', role: 'reader', additionalRoles: ['commenter'], withLink: true };
    assert.deepEqual(accessSummary([owner, link], t), ['Who has access: Alice (Owner)', 'Anyone with the link can comment']);
    assert.equal(linkPermissionOf([owner, link]), link);
    assert.equal(linkPermissionOf([owner]), undefined);
    assert.equal(linkSentence({ type: 'anyone', role: 'writer', withLink: false }, t), 'Anyone on the internet can edit');
    assert.equal(linkSentence({ type: 'domain', role: 'reader', domain: 'example.com', withLink: true }, t), 'Anyone at example.com with the link can view');
  });

  it('tells inherited grants apart, and marks the signed-in user in the picker', () => {
    const inherited = person('Bob', 'writer', { permissionDetails: [{ permissionType: 'file', role: 'writer', inherited: true, inheritedFrom: 'folder1' }] });
    const mixed = person('Carol', 'writer', { permissionDetails: [{ role: 'writer', inherited: true }, { role: 'reader', inherited: false }] });
    assert.equal(isInheritedOnly(inherited), true);
    assert.equal(isInheritedOnly(mixed), false);
    assert.equal(isInheritedOnly(person('Dan', 'reader')), false, 'no details (Google on My Drive items): the file\'s own');
    assert.deepEqual(permissionRow(inherited, 'alice@example.com', t), { label: '$(person) Bob', description: 'Editor · from a folder above', detail: 'bob@example.com' });
    assert.deepEqual(permissionRow(owner, 'Alice@example.com', t).label, '$(person) Alice (you)');
    // An expiring grant says until which day as Desk's clock writes a day, never the ISO timestamp.
    const expiring = person('Eve', 'reader', { expirationDate: '2026-12-04T23:59:59.000Z' });
    assert.match(permissionRow(expiring, undefined, t, britishDay).description, /^Viewer · until Fri,? 4 Dec$/);
    assert.deepEqual(peopleOf([person('Bob', 'reader'), { id: 'anyone', type: 'anyone', role: 'reader' }, owner]).map((permission) => permission.name), ['Alice', 'Bob']);
  });

  it('says who shared a file with the user, from its own metadata', () => {
    assert.match(sharedWithMeLine({ ownedByMe: false, sharingUser: { displayName: 'Bob' }, sharedWithMeDate: '2024-05-01T10:00:00.000Z' }, t, britishDay) ?? '', /^Shared with you by Bob on Wed,? 1 May 2024$/);
    assert.equal(sharedWithMeLine({ ownedByMe: true, sharingUser: { displayName: 'Bob' } }, t), undefined);
    assert.equal(myRole({ ownedByMe: false, userPermission: { role: 'reader', additionalRoles: ['commenter'] } }), 'commenter');
  });
});

describe('Drive sharing refusals', () => {
  const file = { id: 'f1', title: 'plan.md', ownedByMe: false };

  it('explains a 403 by the user\'s role, and writersCanShare=false for editors', () => {
    assert.equal(explainSharingError(googleError(403, 'insufficientFilePermissions'), { ...file, writersCanShare: false, userPermission: { role: 'writer' } }, t),
      'Only the owner can change who has access to “plan.md”: the owner does not let editors share it.');
    assert.equal(explainSharingError(googleError(403, 'insufficientFilePermissions'), { ...file, userPermission: { role: 'reader' } }, t),
      'You cannot change who has access to “plan.md”: your role there is Viewer, and only editors and the owner can.');
  });

  it('says where inherited access is changed and that the owner stays', () => {
    assert.match(explainSharingError(googleError(403, 'cannotDeleteInheritedPermission'), file, t) ?? '', /comes from a folder above it/);
    assert.match(explainSharingError(googleError(403, 'cannotRemoveOwner'), file, t) ?? '', /transfer the ownership first/);
  });

  it('leaves other errors to Desk\'s usual text', () => {
    assert.equal(explainSharingError(googleError(500, 'backendError'), file, t), undefined);
    assert.equal(explainSharingError(new Error('offline'), file, t), undefined);
  });
});
