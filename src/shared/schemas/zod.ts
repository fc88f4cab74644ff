import { $constructor, $ZodObjectJIT, type $ZodObjectDef, type $ZodShape } from 'zod/v4/core';
import { config, ZodMiniType, type ZodMiniObject } from 'zod/mini';
import { en } from 'zod/locales';

/**
 * Desk's one entry to zod, used as `import * as z from '…/shared/schemas/zod'`: Zod Mini (functional,
 * tree-shakable API), which keeps the extension bundle small where classic zod's method chains pull in the whole
 * library. Mini ships without a locale, so every issue would read "Invalid input"; registering English keeps the
 * emulator's 400 messages and response-validation errors as specific as before. Importing from here rather than
 * from 'zod/mini' guarantees this runs before any schema parses. (A re-exported namespace object, `export { z }`,
 * would defeat tree-shaking: the bundler then keeps every export of zod/mini, all locales included.)
 */
config(en());

export * from 'zod/mini';

/**
 * Mini's objects are built on zod's interpreted object parser; classic zod's use the compiled one ($ZodObjectJIT,
 * which generates a checking function per shape once), about five times faster on a page of 100 tasks and the
 * reason listings validated slower than the official client, which validates nothing. Same checks, same issues:
 * this is Mini's object with the compiled parser (falls back to the interpreted one where eval is not allowed).
 */
const ZodMiniCompiledObject = $constructor('ZodMiniObject', (inst: ZodMiniObject, def: $ZodObjectDef) => {
  $ZodObjectJIT.init(inst, def);
  ZodMiniType.init(inst, def);
  Object.defineProperty(inst, 'shape', { get: () => def.shape, enumerable: false, configurable: true });
});

/** `z.object` (this local export takes precedence over the star export's) with the compiled parser; Desk passes no params. */
// @__NO_SIDE_EFFECTS__
export function object<const Shape extends $ZodShape = Record<never, never>>(shape?: Shape): ZodMiniObject<Shape> { // eslint-disable-line @typescript-eslint/no-generated-empty-object-type -- z.object() without a shape is the empty object, as in zod's own signature
  const def = { type: 'object', shape: shape ?? {} } as unknown as $ZodObjectDef;
  return new ZodMiniCompiledObject(def) as unknown as ZodMiniObject<Shape>;
}
