/** Drive v2 demo data for `--seed demo`: alice's and bob's My Drives, a comment thread and a shared drive. */
import { FOLDER_MIME_TYPE, GOOGLE_DOC_MIME_TYPE, GOOGLE_SHEET_MIME_TYPE } from '../../shared/schemas/drive';
import { findUser, EmulatorUser } from '../identity/users';
import type { DriveService } from './service';

/** A realistic My Drive for alice (folders, notes, a native Doc and Sheet, a starred file, something in the trash) and a few files for bob, two of them shared with alice. */
export async function seedDriveDemo(service: DriveService): Promise<void> {
  const alice = findUser('alice@example.com');
  const bob = findUser('bob@example.com');
  if (alice) await seedAlice(service, alice);
  if (bob) await seedBob(service, bob);
  if (alice && bob) seedComments(service, alice, bob);
  if (alice && bob) await seedTeamDrive(service, alice, bob);
}

/** A shared drive, "Team Desk": alice manages it (organizer), bob contributes (writer); a handbook and a planning folder. */
async function seedTeamDrive(service: DriveService, alice: EmulatorUser, bob: EmulatorUser): Promise<void> {
  const drive = service.drives.insert(alice, 'demo-seed-team-desk', { name: 'Team Desk', themeId: 'clover' });
  service.drives.setMember(alice, drive.id, { id: bob.id, type: 'user', emailAddress: bob.email, role: 'writer' });
  await addText(service, alice, 'team-handbook.md', 'text/markdown', '# Team Desk handbook\n\n- Stand-up at 9:30\n- Releases on Thursdays\n', drive.id);
  const planning = addFolder(service, alice, 'Planning', drive.id);
  await addText(service, bob, 'sprint-12.md', 'text/markdown', '# Sprint 12\n\n- [ ] Shared drives in the tree\n- [ ] Members dialog\n', planning);
}

/** A discussion on alice's design.md: bob (a commenter on it) asks and alice answers; alice's own note, resolved. */
function seedComments(service: DriveService, alice: EmulatorUser, bob: EmulatorUser): void {
  const design = service.model.filesOf(alice.id).find((file) => file.title === 'design.md');
  if (!design) return;
  service.permissions.insert(alice, design.id, { type: 'user', role: 'commenter', emailAddress: bob.email });
  // Desk's line anchors (features/drive/comments/anchors.ts): n counts from 1.
  const line = (n: number): string => JSON.stringify({ r: 'head', a: [{ line: { n, l: 1, ml: 4 } }] });
  const question = service.comments.insert(bob, design.id, { content: 'Should the four services share one tree view?', anchor: line(3), context: { type: 'text/plain', value: 'One vertical slice per service: schemas, client, emulator, views.' } });
  service.comments.insertReply(alice, design.id, question.comment.id, { content: 'No: each keeps its own, they differ more than they look.' });
  const note = service.comments.insert(alice, design.id, { content: 'Add a diagram of the request flow.', anchor: line(1), context: { type: 'text/plain', value: '## Architecture' } });
  service.comments.insertReply(alice, design.id, note.comment.id, { content: 'Done: it is in the README.', verb: 'resolve' });
}

async function addText(service: DriveService, user: EmulatorUser, title: string, mimeType: string, text: string, parentId: string, starred = false): Promise<string> {
  const blob = await service.blobs.writeBuffer(Buffer.from(text, 'utf8'));
  const file = service.model.insert(user, { title, parents: [{ id: parentId }], labels: { starred } }, { blob, mimeType, text });
  return file.id;
}

function addFolder(service: DriveService, user: EmulatorUser, title: string, parentId: string): string {
  return service.model.insert(user, { title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] }).id;
}

async function seedAlice(service: DriveService, alice: EmulatorUser): Promise<void> {
  const root = service.model.rootOf(alice).id;
  const projects = addFolder(service, alice, 'Projects', root);
  const desk = addFolder(service, alice, 'Desk', projects);
  const photos = addFolder(service, alice, 'Photos', root);
  const notes = addFolder(service, alice, 'Notes', root);

  await addText(service, alice, 'README.md', 'text/markdown', '# Desk\n\nTasks, books, Drive and calendars inside VS Code.\n\n- [x] Tasks view\n- [ ] Drive view\n', desk);
  await addText(service, alice, 'roadmap.txt', 'text/plain', 'Q1: emulator\nQ2: Drive file system\nQ3: calendar agenda\n', desk, true);
  await addText(service, alice, 'design.md', 'text/markdown', '## Architecture\n\nOne vertical slice per service: schemas, client, emulator, views.\n', desk);
  await addText(service, alice, 'meeting-notes.md', 'text/markdown', '# Weekly sync\n\n- Drive uploads: resumable works\n- Next: change feed in the status bar\n', notes);
  await addText(service, alice, 'groceries.txt', 'text/plain', 'milk\neggs\ncoffee\n', notes);
  await addText(service, alice, 'ideas.txt', 'text/plain', 'A TODO → task quick fix.\nDrag files between folders.\n', root, true);
  // A tiny valid PNG (1×1 pixel) so the Photos folder holds real binary content.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const pixel = await service.blobs.writeBuffer(png);
  service.model.insert(alice, { title: 'pixel.png', parents: [{ id: photos }] }, { blob: pixel, mimeType: 'image/png' });

  await addText(service, alice, 'Project plan', GOOGLE_DOC_MIME_TYPE, 'Project plan\n\nGoal: ship Desk 0.1 with the emulator.\nOwner: Alice\n', projects);
  await addText(service, alice, 'Budget', GOOGLE_SHEET_MIME_TYPE, 'Item,Cost\nLaptop,1200\nLicences,300\nCoffee,45\n', projects);

  const old = await addText(service, alice, 'old-draft.txt', 'text/plain', 'An abandoned first draft.\n', notes);
  service.model.trash(alice, old);
}

async function seedBob(service: DriveService, bob: EmulatorUser): Promise<void> {
  const root = service.model.rootOf(bob).id;
  const reports = addFolder(service, bob, 'Reports', root);
  const report = await addText(service, bob, 'q3-report.txt', 'text/plain', 'Q3 revenue grew 12%.\n', reports);
  await addText(service, bob, 'todo.md', 'text/markdown', '- call Alice\n- review budget\n', root, true);
  const teamNotes = await addText(service, bob, 'Team notes', GOOGLE_DOC_MIME_TYPE, 'Team notes\n\nStand-up at 9:30.\n', root);
  // So alice's Shared with me shows something: one file to read, one to edit.
  service.permissions.insert(bob, report, { type: 'user', role: 'reader', emailAddress: 'alice@example.com' });
  service.permissions.insert(bob, teamNotes, { type: 'user', role: 'writer', emailAddress: 'alice@example.com' });
}
