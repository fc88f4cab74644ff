/** Drive's changes routes: the start token, the change feed (with the emulator's long poll) and one change. */
import { ChangeList, LONG_POLL_ANNOUNCE_HEADER, LONG_POLL_MAX_SECONDS, LONG_POLL_WAIT_HEADER } from '../../../shared/schemas/drive';
import { header, requireUser } from '../../core/context';
import { invalid } from '../../core/errors';
import type { Reply, RequestContext } from '../../core/router';
import { renderChange } from '../render';
import { commaList, DriveRoute, DriveRouteKit, MAX_PAGE, rejectDriveId, safeGet } from '../routing';

const CHANGE_SPACES = ['drive', 'appDataFolder', 'photos'] as const;

/**
 * Emulator-only long poll: a changes.list request carrying `X-Desk-Wait: <seconds ≤ 60>` that finds nothing
 * new is held until a change for the user is recorded or the wait ends. The emulator announces this with
 * `X-Desk-Long-Poll: 1` on changes.list / getStartPageToken answers and `deskLongPoll: true` in about.get,
 * and the Desk client only sends the header after seeing the announcement (Google never sends it).
 */
export function changeRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { service } = kit;
  const { model } = service;
  const renderContext = kit.renderContext;
  return [
    ['GET', '/drive/v2/changes/startPageToken', getStartPageToken],
    ['GET', '/drive/v2/changes', listChanges],
    ['GET', '/drive/v2/changes/:changeId', getChange],
  ];

  function getStartPageToken(context: RequestContext): Reply {
    requireUser(context);
    rejectDriveId(context.query);
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: { kind: 'drive#startPageToken', startPageToken: model.startPageToken() } };
  }

  async function listChanges(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    rejectDriveId(context.query);
    const pageToken = context.query.string('pageToken', 64) ?? context.query.string('startChangeId', 64);
    const maxResults = Math.min(MAX_PAGE, context.query.integer('maxResults', { min: 1, default: 100 }) ?? 100);
    const includeDeleted = context.query.boolean('includeDeleted', true);
    context.query.boolean('includeSubscribed', true);
    context.query.boolean('includeCorpusRemovals', false);
    const spaces = commaList(context.query, 'spaces', CHANGE_SPACES);
    const wait = waitSeconds(context);
    const listOnce = (): ReturnType<typeof model.listChanges> => {
      const page = model.listChanges(user, { pageToken, maxResults, includeDeleted });
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
        if (await model.waitForChange(user.id, wait * 1000, controller.signal)) page = listOnce();
      } finally {
        socket.off('close', onClose);
      }
    }
    const render = renderContext(context);
    const items = page.changes.map((record) => renderChange(render, record, model.exists(record.fileId) && !record.deleted ? safeGet(service, user, record.fileId) : undefined));
    const selfLink = `${context.baseUrl}/drive/v2/changes`;
    const list: ChangeList = {
      kind: 'drive#changeList',
      etag: `"changes-${page.largestChangeId}"`,
      selfLink,
      largestChangeId: String(page.largestChangeId),
      items,
    };
    if (page.nextPageToken !== undefined) {
      list.nextPageToken = page.nextPageToken;
      list.nextLink = `${selfLink}?pageToken=${page.nextPageToken}`;
    }
    if (page.newStartPageToken !== undefined) list.newStartPageToken = page.newStartPageToken;
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: list };
  }

  function getChange(context: RequestContext): Reply {
    const user = requireUser(context);
    rejectDriveId(context.query);
    const record = model.getChange(user, context.params.changeId as string);
    return { json: renderChange(renderContext(context), record, record.deleted ? undefined : safeGet(service, user, record.fileId)) };
  }
}

function waitSeconds(context: RequestContext): number {
  const raw = header(context, LONG_POLL_WAIT_HEADER);
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,3}$/.test(raw.trim()) || Number(raw) > LONG_POLL_MAX_SECONDS) throw invalid(`${LONG_POLL_WAIT_HEADER} must be 0–${LONG_POLL_MAX_SECONDS} seconds`, 'X-Desk-Wait', 'header');
  return Number(raw);
}
