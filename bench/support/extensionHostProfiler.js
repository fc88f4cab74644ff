// Loaded with `node --require` into the processes of the network benchmark's code-server when
// DESK_BENCH_PROFILE_DIR is set: an extension host writes the CPU profile of its first 8 s there
// (extension-host-<pid>.cpuprofile, with `startedAtEpoch` to set it beside Desk's startup marks).
// Only a host that lives that long writes one: the last reload's. Other processes are left alone.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.DESK_BENCH_PROFILE_DIR;
const isExtensionHost = process.argv.includes('--type=extensionHost');
if (dir && isExtensionHost) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const startedAtEpoch = Date.now();
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start', () => {
    setTimeout(() => session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `extension-host-${process.pid}.cpuprofile`), JSON.stringify({ ...result.profile, startedAtEpoch }));
    }), 8000).unref();
  })));
}
