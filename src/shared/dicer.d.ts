/** Minimal typings for `dicer` (a streaming multipart parser; no @types package exists for 0.3). */
declare module 'dicer' {
  import { Readable, Writable } from 'node:stream';

  interface DicerConfig {
    boundary?: string;
    headerFirst?: boolean;
    partHwm?: number;
    maxHeaderPairs?: number;
  }

  /** One part: a Readable that emits 'header' (lower-cased names → values) before its data. */
  type PartStream = Readable;

  class Dicer extends Writable {
    constructor(config: DicerConfig);
    on(event: 'part' | 'preamble', listener: (part: PartStream) => void): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }

  export = Dicer;
}
