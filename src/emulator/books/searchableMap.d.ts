/**
 * Typings for `minisearch/SearchableMap` (MiniSearch's radix tree): the package names that entry point only in its
 * `exports` map, which this project's module resolution does not read, so point it at the package's own declarations.
 */
declare module 'minisearch/SearchableMap' {
  export { default } from 'minisearch/dist/es/SearchableMap';
}
