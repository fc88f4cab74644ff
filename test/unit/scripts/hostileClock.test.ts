// CI's second run of the VS Code suites moves every process's clock to the coming Sunday 23:40 in Europe/Berlin
// (scripts/hostileClock.js); the instant must be that one whatever the day CI runs, in winter and in summer time.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const { comingSundayNight, hostileClockEnv } = require(path.join(repoRoot, 'scripts', 'hostileClock.js')) as {
  comingSundayNight: (now: number) => number;
  hostileClockEnv: (now?: number, target?: number) => Partial<Record<string, string>> | undefined;
};

describe('the hostile clock of CI', () => {
  const iso = (ms: number): string => new Date(ms).toISOString();

  it('is the coming Sunday 23:40 in Berlin, from any day of the week', () => {
    assert.equal(iso(comingSundayNight(Date.parse('2026-11-28T19:40:00Z'))), '2026-11-29T22:40:00.000Z', 'from a Saturday evening');
    assert.equal(iso(comingSundayNight(Date.parse('2026-11-23T00:00:00Z'))), '2026-11-29T22:40:00.000Z', 'from a Monday');
    assert.equal(iso(comingSundayNight(Date.parse('2026-11-29T10:00:00Z'))), '2026-11-29T22:40:00.000Z', 'from the Sunday itself, earlier');
    assert.equal(iso(comingSundayNight(Date.parse('2026-11-29T22:50:00Z'))), '2026-12-06T22:40:00.000Z', 'from the Sunday itself, later: next week');
  });

  it('is 23:40 of Berlin\'s summer time in summer, and lands on the Sunday of a DST change', () => {
    assert.equal(iso(comingSundayNight(Date.parse('2026-07-01T12:00:00Z'))), '2026-07-05T21:40:00.000Z');
    assert.equal(iso(comingSundayNight(Date.parse('2026-03-27T12:00:00Z'))), '2026-03-29T21:40:00.000Z', 'the Sunday clocks go forward');
    assert.equal(iso(comingSundayNight(Date.parse('2026-10-23T12:00:00Z'))), '2026-10-25T22:40:00.000Z', 'the Sunday clocks go back');
  });

  it('moves the clock by a relative offset in seconds, shared by every process, with Berlin as the machine zone', function () {
    const now = Date.parse('2026-11-28T19:40:00Z');
    const env = hostileClockEnv(now);
    if (!env) this.skip(); // libfaketime missing: the CI stage itself then fails with the reason
    assert.equal(env.FAKETIME, `+${(Date.parse('2026-11-29T22:40:00Z') - now) / 1000}`);
    assert.equal(env.TZ, 'Europe/Berlin');
    assert.match(env.LD_PRELOAD ?? '', /libfaketime\.so\.1/);
  });
});
