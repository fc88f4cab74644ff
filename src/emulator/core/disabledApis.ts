/**
 * Simulated "API not enabled" (`--disable-api calendar`, or `PUT /emulator/v1/disabled-apis`): every call to a
 * disabled API answers what Google answers when the OAuth client's Cloud project has not enabled it — 403
 * `accessNotConfigured` with a google.rpc.Help link and an ErrorInfo of reason SERVICE_DISABLED naming the
 * service and its activation URL.
 */
import { ApiError } from './errors';

/** The APIs Desk uses, by the name the flag takes: the path prefixes they serve, their service name and title. */
export const EMULATED_APIS = {
  tasks: { prefixes: ['/tasks/v1/'], service: 'tasks.googleapis.com', title: 'Google Tasks API' },
  books: { prefixes: ['/books/v1/'], service: 'books.googleapis.com', title: 'Books API' },
  drive: { prefixes: ['/drive/v2/', '/upload/drive/v2/'], service: 'drive.googleapis.com', title: 'Google Drive API' },
  drivelabels: { prefixes: ['/v2/labels'], service: 'drivelabels.googleapis.com', title: 'Drive Labels API' },
  calendar: { prefixes: ['/calendar/v3/'], service: 'calendar-json.googleapis.com', title: 'Google Calendar API' },
  admin: { prefixes: ['/admin/directory/', '/admin/directory_v1/'], service: 'admin.googleapis.com', title: 'Admin SDK API' },
} as const;

export type EmulatedApiName = keyof typeof EMULATED_APIS;

/** The project number the emulator's OAuth clients "belong" to, as Google's message quotes it. */
const PROJECT = '123456789012';

export function isEmulatedApiName(name: string): name is EmulatedApiName {
  return Object.prototype.hasOwnProperty.call(EMULATED_APIS, name);
}

/** The API a request path belongs to, if it is one Desk uses. */
export function apiOfPath(pathname: string): EmulatedApiName | undefined {
  for (const [name, api] of Object.entries(EMULATED_APIS) as Array<[EmulatedApiName, (typeof EMULATED_APIS)[EmulatedApiName]]>) {
    if (api.prefixes.some((prefix) => pathname.startsWith(prefix))) return name;
  }
  return undefined;
}

/** Google's answer for a call to an API the project has not enabled. */
export function serviceDisabledError(name: EmulatedApiName): ApiError {
  const { service, title } = EMULATED_APIS[name];
  const activationUrl = `https://console.developers.google.com/apis/api/${service}/overview?project=${PROJECT}`;
  const message = `${title} has not been used in project ${PROJECT} before or it is disabled. Enable it by visiting ${activationUrl} then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`;
  return new ApiError(403, 'accessNotConfigured', message, { domain: 'usageLimits' }, {}, [
    { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Google developers console API activation', url: activationUrl }] },
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'SERVICE_DISABLED',
      domain: 'googleapis.com',
      metadata: { service, consumer: `projects/${PROJECT}`, activationUrl, containerInfo: PROJECT, serviceTitle: title },
    },
    { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
  ]);
}
