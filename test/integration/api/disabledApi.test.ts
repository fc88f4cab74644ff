import * as assert from 'node:assert/strict';
import { calendar } from '@googleapis/calendar';
import fetch from 'node-fetch';
import { CalendarClient } from '../../../src/api/calendar';
import { errorMessage, GoogleApiError } from '../../../src/api/errors';
import { HttpClient } from '../../../src/api/http';
import { TasksClient } from '../../../src/api/tasks';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { SERVICE_MODULES } from '../../../src/emulator/services';
import { officialClientOptions } from '../../support/officialClient';

/**
 * An API the OAuth client's Cloud project has not enabled: the emulator answers Google's 403 accessNotConfigured with
 * an ErrorInfo SERVICE_DISABLED (as the official client sees it), and Desk turns it into one message naming the API,
 * with the activation link.
 */
describe('an API not enabled in the Cloud project', () => {
  let emulator: RunningEmulator;
  const http = (): HttpClient => {
    const token = emulator.tokenFor('alice@example.com').accessToken;
    return new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  };

  before(async () => {
    emulator = await startEmulator({ port: 0, disabledApis: new Set(['calendar']) }, SERVICE_MODULES);
  });
  after(() => emulator.close());

  it('answers Google\'s exact error: 403 accessNotConfigured, ErrorInfo SERVICE_DISABLED with service and activation URL', async () => {
    const api = calendar({ version: 'v3', ...officialClientOptions(emulator, 'alice@example.com') });
    await assert.rejects(api.calendarList.list(), (error: { response?: { status: number; data: { error: { errors: Array<{ reason: string; domain: string }>; status: string; details: Array<Record<string, unknown>> } } } }) => {
      assert.equal(error.response?.status, 403);
      const body = error.response.data.error;
      assert.deepEqual([body.errors[0]?.reason, body.errors[0]?.domain, body.status], ['accessNotConfigured', 'usageLimits', 'PERMISSION_DENIED']);
      const info = body.details.find((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
      assert.equal(info?.reason, 'SERVICE_DISABLED');
      assert.deepEqual(Object.keys(info.metadata as object).sort(), ['activationUrl', 'consumer', 'containerInfo', 'service', 'serviceTitle']);
      assert.equal((info.metadata as { service: string }).service, 'calendar-json.googleapis.com');
      return true;
    });
  });

  it('becomes one Desk message naming the API, with the link that enables it; other APIs keep working', async () => {
    await assert.rejects(new CalendarClient(http()).listCalendarList(), (error: unknown) => {
      assert.ok(error instanceof GoogleApiError);
      assert.equal(error.disabledService?.title, 'Google Calendar API');
      assert.match(error.disabledService.activationUrl, /^https:\/\/console\.developers\.google\.com\/apis\/api\/calendar-json\.googleapis\.com\/overview\?project=/);
      assert.equal(errorMessage(error), 'Google Calendar API is not enabled in the Google Cloud project of your OAuth client. Enable it there, wait a minute, then try again.');
      return true;
    });
    assert.ok((await new TasksClient(http()).listTaskLists()).items);
  });

  it('is switched at run time by PUT /emulator/v1/disabled-apis (and refuses unknown names)', async () => {
    const put = async (apis: string[]): Promise<number> => (await fetch(`${emulator.url}/emulator/v1/disabled-apis`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apis }) })).status;
    assert.equal(await put(['nope']), 400);
    assert.equal(await put([]), 200);
    assert.ok((await new CalendarClient(http()).listCalendarList()).items);
    assert.equal(await put(['tasks']), 200);
    await assert.rejects(new TasksClient(http()).listTaskLists(), (error: unknown) => error instanceof GoogleApiError && error.disabledService?.service === 'tasks.googleapis.com');
  });
});
