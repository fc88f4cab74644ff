/** Drive's changes routes: the start token, the change feed of a user or a shared drive (with the emulator's long poll) and one change. */
import { Change, LONG_POLL_ANNOUNCE_HEADER, LONG_POLL_MAX_SECONDS, LONG_POLL_WAIT_HEADER } from '../../../shared/schemas/drive';
import type { EmulatorUser } from '../../identity/users';
import { header, requireUser } from '../../core/context';
import { invalid } from '../../core/errors';
import type { QueryParams } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { renderDrive, renderDriveChange } from '../drives/render';
import { supportsAllDrives } from '../files/allDrives';
import { renderChange, renderChangeList, RenderContext, renderStartPageToken } from '../render';
import { commaList, DriveRouteKit, MAX_PAGE, safeGet } from '../routing';
import { ChangeRecord, driveFeedKey } from './model';

const CHANGE_SPACES = ['drive', 'appDataFolder', 'photos'] as const;

/** Which feed a request reads: the user's own, or a shared drive's (`driveId`, members only). */
interface FeedChoice {
  readonly key: string;
  /** Shared-drive items and drive changes are in the user's feed only with includeItemsFromAllDrives. */
  readonly include?: (record: ChangeRecord) => boolean;
}

/**
 * Emulator-only long poll: a changes.list request carrying `X-Desk-Wait: <seconds ≤ 60>` that finds nothing
 * new is held until a change for the user is recorded or the wait ends. The emulator announces this with
 * `X-Desk-Long-Poll: 1` on changes.list / getStartPageToken answers and `deskLongPoll: true` in about.get,
 * and the Desk client only sends the header after seeing the announcement (Google never sends it).
 */
export function changeRoutes(kit: DriveRouteKit): Route[] {
  const { service } = kit;
  const { model, drives } = service;
  const renderContext = kit.renderContext;
  return [
    { id: 'drive.changes.getStartPageToken', method: 'GET', path: '/drive/v2/changes/startPageToken', handle: getStartPageToken },
    { id: 'drive.changes.list', method: 'GET', path: '/drive/v2/changes', handle: listChanges },
    { id: 'drive.changes.get', method: 'GET', path: '/drive/v2/changes/:changeId', handle: getChange },
  ];

  /** driveId (teamDriveId): that drive's feed, for its members; otherwise the user's feed. */
  function feedFor(query: QueryParams, user: EmulatorUser, includeItemsFromAllDrives: boolean): FeedChoice {
    supportsAllDrives(query);
    const driveId = query.string('driveId', 200) ?? query.string('teamDriveId', 200);
    if (driveId !== undefined) {
      drives.get(user, driveId);
      return { key: driveFeedKey(driveId) };
    }
    return includeItemsFromAllDrives ? { key: user.id } : { key: user.id, include: (record) => record.driveId === undefined };
  }

  function render(context: RenderContext, user: EmulatorUser, record: ChangeRecord): Change {
    if (record.changeType === 'drive') {
      const drive = !record.deleted && drives.roleOf(user, record.fileId) !== undefined ? drives.get(user, record.fileId) : undefined;
      return renderDriveChange(context.baseUrl, record, drive && renderDrive(drive, { role: drives.roleOf(user, drive.id), hidden: drives.isHiddenFor(drive, user) }));
    }
    return renderChange(context, record, model.exists(record.fileId) && !record.deleted ? safeGet(service, user, record.fileId) : undefined);
  }

  function getStartPageToken(context: RequestContext): Reply {
    const user = requireUser(context);
    // Change ids are global: a drive's feed starts at the same token (once its membership is checked).
    feedFor(context.query, user, true);
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: renderStartPageToken(model.startPageToken()) };
  }

  async function listChanges(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const includeAll = context.query.boolean('includeItemsFromAllDrives', false) || context.query.boolean('includeTeamDriveItems', false);
    const feed = feedFor(context.query, user, includeAll);
    const pageToken = context.query.string('pageToken', 64) ?? context.query.string('startChangeId', 64);
    const maxResults = Math.min(MAX_PAGE, context.query.integer('maxResults', { min: 1, default: 100 }) ?? 100);
    const includeDeleted = context.query.boolean('includeDeleted', true);
    context.query.boolean('includeSubscribed', true);
    context.query.boolean('includeCorpusRemovals', false);
    context.query.string('includePermissionsForView', 64);
    context.query.string('includeLabels', 2048);
    const spaces = commaList(context.query, 'spaces', CHANGE_SPACES);
    const wait = waitSeconds(context);
    const listOnce = (): ReturnType<typeof model.feed.list> => {
      const page = model.feed.list(feed.key, { pageToken, maxResults, includeDeleted, ...(feed.include ? { include: feed.include } : {}) });
      // Only the drive space holds files in the emulator.
      return spaces.length > 0 && !spaces.includes('drive') ? { ...page, changes: [] } : page;
    };
    let page = listOnce();
    if (wait > 0 && page.changes.length === 0 && page.newStartPageToken !== undefined) {
      const controller = new AbortController();
      const socket = context.request.socket;
      const onClose = (): void => controller.abort();
      socket.once('close', onClose);
      try {
        if (await model.waitForChange(feed.key, wait * 1000, controller.signal)) page = listOnce();
      } finally {
        socket.off('close', onClose);
      }
    }
    const renderWith = renderContext(context);
    const items = page.changes.map((record) => render(renderWith, user, record));
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: renderChangeList(renderWith, items, page) };
  }

  function getChange(context: RequestContext): Reply {
    const user = requireUser(context);
    const feed = feedFor(context.query, user, true);
    const record = model.feed.get(feed.key, context.params.changeId as string);
    return { json: render(renderContext(context), user, record) };
  }
}

/** The wait asked for; none inside a batch, whose parts run one after another (1000 held parts: 16 hours). */
function waitSeconds(context: RequestContext): number {
  const raw = header(context, LONG_POLL_WAIT_HEADER);
  if (raw === undefined || raw === '' || context.inBatch) return 0;
  if (!/^\d{1,3}$/.test(raw.trim()) || Number(raw) > LONG_POLL_MAX_SECONDS) throw invalid(`${LONG_POLL_WAIT_HEADER} must be 0–${LONG_POLL_MAX_SECONDS} seconds`, 'X-Desk-Wait', 'header');
  return Number(raw);
}
