import { config } from 'zod/mini';
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
