/** The parts of a request every service reads the same way: the signed-in user and single header values. */
import type { EmulatorUser } from '../identity/users';
import { ApiError } from './errors';
import type { RequestContext } from './router';

/** The authenticated user of a request; routes registered with `auth: false` have none, which is a 401 here. */
export function requireUser(context: RequestContext): EmulatorUser {
  if (!context.user) throw new ApiError(401, 'required', 'Login Required.', { location: 'Authorization', locationType: 'header' });
  return context.user;
}

/** One header's value (the first when repeated); `name` is lower case as Node gives it. */
export function header(context: Pick<RequestContext, 'headers'>, name: string): string | undefined {
  const value = context.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
