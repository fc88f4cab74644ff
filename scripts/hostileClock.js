// The hostile clock CI runs the VS Code suites at a second time: the coming Sunday 23:40 in Europe/Berlin (the
// demo's week is over, the day has twenty minutes left, and alice's zone is an hour from UTC). Every process of the
// run shares it through libfaketime (Debian's `faketime` package) with a relative offset, so the test runner, the
// emulator, VS Code's server, its extension host and Chromium all read the same moved clock.
// VS Code's server deletes LD_PRELOAD from the extension host's environment (removeDangerousEnvVariables), so the
// run uses a copy of Node that loads libfaketime itself (patchelf --add-needed): every Node process it starts, the
// extension host included, keeps the moved clock; FAKETIME, which VS Code passes on, says by how much.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'];
const ZONE = 'Europe/Berlin';

/** The UTC instant of the wall time `date` (YYYY-MM-DD) `time` (HH:MM) in `zone` (outside a DST gap). */
function wallInstant(zone, date, time) {
  const guess = Date.parse(`${date}T${time}:00Z`);
  // The zone's offset at the guess, then at the corrected instant (they differ only next to a DST change).
  const offsetAt = (instant) => {
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(instant).map((part) => [part.type, part.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - Math.floor(instant / 1000) * 1000;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

/** The first Sunday 23:40 in Europe/Berlin after `now` (epoch ms). */
function comingSundayNight(now) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  for (let ahead = (7 - weekday) % 7; ; ahead += 7) {
    const date = new Date(Date.parse(`${today}T12:00:00Z`) + ahead * 86_400_000).toISOString().slice(0, 10);
    const instant = wallInstant(ZONE, date, '23:40');
    if (instant > now) return instant;
  }
}

function libfaketimePath() {
  return LIBFAKETIME.find((file) => fs.existsSync(file));
}

/** Environment that moves every process's clock to `target` (epoch ms) from now on, or undefined without libfaketime. */
function hostileClockEnv(now = Date.now(), target = comingSundayNight(now)) {
  const library = libfaketimePath();
  if (!library) return undefined;
  const seconds = Math.round((target - now) / 1000);
  return {
    LD_PRELOAD: [library, process.env.LD_PRELOAD].filter(Boolean).join(':'),
    FAKETIME: `${seconds >= 0 ? '+' : ''}${seconds}`,
    TZ: ZONE,
    DESK_HOSTILE_CLOCK: new Date(target).toISOString(),
  };
}

/**
 * A copy of this Node (under `cacheDir`, made once per Node version) that needs libfaketime, so the clock moves in
 * every process started from it whatever its environment. Throws with the reason when patchelf or libfaketime is missing.
 */
function nodeWithFakeClock(cacheDir) {
  const library = libfaketimePath();
  if (!library) throw new Error("libfaketime is missing: bash scripts/setup.sh system installs Debian's faketime");
  const target = path.join(cacheDir, `node-${process.version}-faketime`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(cacheDir, { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.copyFileSync(process.execPath, temporary);
  try {
    execFileSync('patchelf', ['--add-needed', library, temporary], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new Error(`patchelf could not make a Node that loads libfaketime (bash scripts/setup.sh system installs Debian's patchelf): ${error instanceof Error ? error.message : String(error)}`);
  }
  fs.chmodSync(temporary, 0o755);
  fs.renameSync(temporary, target);
  return target;
}

module.exports = { comingSundayNight, hostileClockEnv, libfaketimePath, nodeWithFakeClock, wallInstant };
