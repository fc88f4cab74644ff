/** Drive v2 properties (key/value pairs on a file, PUBLIC or private to one app): shared by the client and the emulator. */
import * as z from '../zod';
import { propertySchema } from './files';

export { PROPERTY_VISIBILITIES, propertyInputSchema, propertySchema } from './files';
export type { DriveProperty, PropertyInput, PropertyVisibility } from './files';

export const propertyListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  items: z._default(z.array(propertySchema), []),
});
export type PropertyList = z.infer<typeof propertyListSchema>;

/** properties.update / patch bodies: the new value (key and visibility come from the path and query). */
export const propertyChangeSchema = z.object({
  key: z.optional(z.string().check(z.minLength(1), z.maxLength(124))),
  value: z.optional(z.string().check(z.maxLength(124))),
  visibility: z.optional(z.enum(['PRIVATE', 'PUBLIC'])),
});
export type PropertyChange = z.infer<typeof propertyChangeSchema>;
