import { int64Number } from './int64';
import * as z from './zod';

/**
 * Push-notification channels as every Google API shares them (Drive, Calendar, the Admin SDK's Directory): the watch
 * request, the channel answered, the stop request, and the limits and event names the client checks before sending.
 * Responses are tolerant (extra fields stripped, `expiration` as Google's int64 string or a number); inputs strict.
 */

/** Google's limits on a channel's id and token. */
export const MAX_CHANNEL_ID = 64;
export const MAX_CHANNEL_TOKEN = 256;
/** The characters Google allows in a channel id. */
export const CHANNEL_ID_PATTERN = /^[A-Za-z0-9\-_+/=]+$/;

/** The Directory's users.watch events (one per channel; none means all). */
export const DIRECTORY_USER_EVENTS = ['add', 'delete', 'makeAdmin', 'undelete', 'update'] as const;
export type DirectoryUserEvent = (typeof DIRECTORY_USER_EVENTS)[number];

/** The body of every `watch`. */
export const channelInputSchema = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(MAX_CHANNEL_ID), z.regex(CHANNEL_ID_PATTERN, 'may contain only letters, digits and - _ + / =')),
  type: z.literal('web_hook'),
  address: z.string().check(z.refine((value) => /^https:\/\//i.test(value), { error: 'must be an https:// address' })),
  token: z.optional(z.string().check(z.maxLength(MAX_CHANNEL_TOKEN))),
  /** Epoch ms; the service answers the least of this and its own maximum. */
  expiration: z.optional(z.number()),
  params: z.optional(z.record(z.string(), z.string())),
});
export type ChannelInput = z.infer<typeof channelInputSchema>;

/** What a watch answers: `expiration` is an int64 of epoch ms (a string on the wire, read as a number). */
export const channelSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  resourceId: z.string(),
  resourceUri: z.optional(z.string()),
  token: z.optional(z.string()),
  expiration: z.optional(int64Number),
});
export type Channel = z.infer<typeof channelSchema>;

/** The body of `channels.stop`: the channel's id and the resourceId its watch answered. */
export const channelStopInputSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  resourceId: z.string().check(z.minLength(1)),
});
export type ChannelStopInput = z.infer<typeof channelStopInputSchema>;

/** The emulator's receiver certificate (`POST /emulator/v1/channels/certificates`): PEM certificate, key and CA. */
export const receiverCertificateSchema = z.object({
  cert: z.string(),
  key: z.string(),
  ca: z.string(),
});
export type ReceiverCertificate = z.infer<typeof receiverCertificateSchema>;
