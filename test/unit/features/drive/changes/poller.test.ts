import * as assert from 'node:assert/strict';
import { DEFAULT_SCHEDULE } from '../../../../../src/core/sync/poller';
import { ChangePoller, PollOutcome } from '../../../../../src/features/drive/changes/poller';
import { FakeChangeFeed, FakeClock, InvalidToken, MemoryTokens, NetworkDown } from '../../../../support/fakes/changes';

const KEY = 'emulator:http://127.0.0.1:1:alice@example.com';

function setup(options: { feed?: FakeChangeFeed; tokens?: MemoryTokens; clock?: FakeClock } = {}) {
  const feed = options.feed ?? new FakeChangeFeed();
  const tokens = options.tokens ?? new MemoryTokens();
  const clock = options.clock ?? new FakeClock();
  const outcomes: PollOutcome[] = [];
  const errors: unknown[] = [];
  const poller = new ChangePoller({
    source: feed,
    tokens,
    tokenKey: KEY,
    clock,
    onChanges: (outcome) => outcomes.push(outcome),
    onError: (error) => errors.push(error),
    isInvalidToken: (error) => error instanceof InvalidToken,
    isSignedOutError: (error) => error instanceof Error && error.message === '401',
  });
  return { feed, tokens, clock, poller, outcomes, errors };
}

function changedFiles(outcomes: PollOutcome[]): string[] {
  return outcomes.flatMap((outcome) => outcome.changes.map((change) => change.fileId ?? '?'));
}

describe('ChangePoller', () => {
  it('starts from a fresh start page token and reports nothing old', async () => {
    const { feed, tokens, clock, poller, outcomes } = setup();
    feed.add('old-1');
    feed.add('old-2');
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    assert.equal(feed.startTokenRequests, 1);
    assert.equal(tokens.get(KEY), '3');
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.deepEqual(outcomes, []);
    poller.stop();
  });

  it('follows every page until newStartPageToken and persists it', async () => {
    const { feed, tokens, clock, poller, outcomes } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    for (const id of ['a', 'b', 'c', 'd', 'e']) feed.add(id);
    feed.requests.length = 0;
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.deepEqual(changedFiles(outcomes), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(outcomes.length, 1, 'one notification for all pages of a poll');
    assert.deepEqual(feed.requests.map((request) => request.pageToken), ['1', '3', '5']);
    assert.equal(tokens.get(KEY), '6');
    poller.stop();
  });

  it('resumes from the stored token after a restart, without a new start token', async () => {
    const tokens = new MemoryTokens();
    const feed = new FakeChangeFeed();
    const first = setup({ feed, tokens });
    first.poller.setSignedIn(true);
    first.poller.start();
    await first.clock.advance(0);
    first.poller.stop();
    feed.add('while-closed');
    const second = setup({ feed, tokens });
    second.poller.setSignedIn(true);
    second.poller.start();
    await second.clock.advance(0);
    assert.equal(feed.startTokenRequests, 1);
    assert.deepEqual(changedFiles(second.outcomes), ['while-closed']);
    second.poller.stop();
  });

  it('polls quickly while focused and active', async () => {
    const { feed, clock, poller } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    feed.requests.length = 0;
    for (let second = 0; second < 30; second++) {
      poller.noteActivity();
      await clock.advance(1_000);
    }
    assert.equal(feed.requests.length, 30_000 / DEFAULT_SCHEDULE.activeMs);
    poller.stop();
  });

  it('backs off up to the idle maximum while unfocused', async () => {
    const { feed, clock, poller } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    poller.setFocused(false);
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    const times: number[] = [];
    const start = clock.now();
    feed.requests.length = 0;
    for (let minute = 0; minute < 20; minute++) {
      const before = feed.requests.length;
      for (let second = 0; second < 60; second++) {
        await clock.advance(1_000);
        if (feed.requests.length > before && times.length < feed.requests.length) times.push(clock.now() - start);
      }
    }
    const gaps = times.slice(1).map((time, index) => time - (times[index]));
    assert.ok(gaps.length >= 4, `polls: ${times.join(',')}`);
    for (let i = 1; i < gaps.length; i++) assert.ok((gaps[i]) >= (gaps[i - 1]), `gaps grow: ${gaps.join(',')}`);
    assert.equal(Math.max(...gaps), DEFAULT_SCHEDULE.maxIdleMs);
    poller.stop();
  });

  it('goes idle when focused but inactive, and polls at once on activity', async () => {
    const { feed, clock, poller, outcomes } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    await clock.advance(DEFAULT_SCHEDULE.activityWindowMs + 10 * 60_000);
    const next = poller.nextPollTime as number;
    assert.ok(next - clock.now() > DEFAULT_SCHEDULE.activeMs, 'idle: the next poll is far away');
    feed.add('x');
    poller.noteActivity();
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['x']);
    poller.stop();
  });

  it('replaces a rejected page token with a fresh start token and keeps polling', async () => {
    const { feed, tokens, clock, poller, outcomes } = setup();
    tokens.set(KEY, 'garbage');
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]?.tokenReset, true);
    assert.equal(tokens.get(KEY), '1');
    feed.add('after-reset');
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.deepEqual(changedFiles(outcomes), ['after-reset']);
    poller.stop();
  });

  it('backs off after network errors and recovers', async () => {
    const { feed, clock, poller, outcomes, errors } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    feed.failures.push(new NetworkDown('down'), new NetworkDown('down'), new NetworkDown('down'));
    feed.add('eventually');
    const attempts: number[] = [];
    const start = clock.now();
    for (let second = 0; second < 120 && outcomes.length === 0; second++) {
      poller.noteActivity();
      const before = feed.requests.length;
      await clock.advance(1_000);
      if (feed.requests.length > before) attempts.push(Math.round((clock.now() - start) / 1000));
    }
    assert.equal(errors.length, 3);
    assert.deepEqual(changedFiles(outcomes), ['eventually']);
    const gaps = attempts.slice(1).map((time, index) => time - (attempts[index]));
    assert.deepEqual(gaps, [5, 10, 20], `attempts at ${attempts.join(',')}`);
    // Back to the quick interval once it works again.
    const before = feed.requests.length;
    poller.noteActivity();
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.equal(feed.requests.length, before + 1);
    poller.stop();
  });

  it('does nothing while signed out, and pauses on a 401', async () => {
    const { feed, clock, poller, outcomes } = setup();
    poller.start();
    await clock.advance(60_000);
    assert.equal(feed.startTokenRequests + feed.requests.length, 0);
    assert.equal(poller.state, 'signedOut');
    poller.setSignedIn(true);
    await clock.advance(0);
    assert.equal(feed.startTokenRequests, 1);
    feed.failures.push(new Error('401'));
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.equal(poller.state, 'signedOut');
    const requests = feed.requests.length;
    await clock.advance(10 * 60_000);
    assert.equal(feed.requests.length, requests, 'no requests while signed out');
    feed.add('later');
    poller.setSignedIn(true);
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['later']);
    poller.stop();
  });

  it('holds a long poll when the server announces it, and delivers a change without waiting for a timer', async () => {
    const { feed, clock, poller, outcomes } = setup();
    feed.longPoll = true;
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0); // start token
    await clock.advance(DEFAULT_SCHEDULE.activeMs); // first short poll learns of long polling
    assert.equal(poller.usesLongPoll, true);
    poller.noteActivity();
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    const held = feed.requests.at(-1);
    assert.equal(held?.waitSeconds, DEFAULT_SCHEDULE.longPollSeconds);
    assert.equal(poller.state, 'polling');
    feed.add('pushed');
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['pushed']);
    poller.stop();
  });

  it('ends a held long poll when the window loses focus', async () => {
    const { feed, clock, poller } = setup();
    feed.longPoll = true;
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    poller.noteActivity();
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.equal(poller.state, 'polling');
    poller.setFocused(false);
    await clock.advance(0);
    assert.equal(poller.state, 'idle');
    assert.ok((poller.nextPollTime as number) - clock.now() >= DEFAULT_SCHEDULE.idleStartMs);
    poller.stop();
  });

  it('while push works: fetches on each notification, and otherwise polls only at the slow push pace', async () => {
    const { feed, clock, poller, outcomes } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    poller.setPushActive(true);
    await clock.advance(0);
    assert.equal(poller.pushed, true);
    feed.requests.length = 0;
    // An hour of an active user: no timer-driven polls besides the safety net.
    for (let minute = 0; minute < 60; minute++) {
      poller.noteActivity();
      await clock.advance(60_000);
    }
    assert.equal(feed.requests.length, 60 * 60_000 / DEFAULT_SCHEDULE.pushMs);
    assert.ok((poller.nextPollTime as number) - clock.now() > DEFAULT_SCHEDULE.maxIdleMs, 'slower than any polling pace');
    // A notification: fetched at once, not at the next tick.
    feed.add('pushed');
    poller.pushNotified();
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['pushed']);
    assert.equal(poller.pushPolls, 1);
    assert.ok((poller.nextPollTime as number) - clock.now() >= DEFAULT_SCHEDULE.pushMs - 1);
    poller.stop();
  });

  it('polls again right after a poll that was in flight when a notification came', async () => {
    const { feed, clock, poller, outcomes } = setup();
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    poller.setPushActive(true);
    await clock.advance(0);
    // The next poll is in flight when the change and its notification arrive.
    let release: () => void = () => undefined;
    const original = feed.listPage.bind(feed);
    // It answers what was there when it was served, before the change.
    feed.listPage = async (request) => {
      feed.listPage = original;
      const page = await original(request);
      await new Promise<void>((resolve) => { release = resolve; });
      return page;
    };
    poller.pushNotified();
    await clock.advance(0);
    assert.equal(poller.state, 'polling');
    feed.add('during');
    poller.pushNotified();
    release();
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['during']);
    poller.stop();
  });

  it('ends a held long poll when push starts working, and goes back to its own pace with a catch-up poll when push stops', async () => {
    const { feed, clock, poller, outcomes } = setup();
    feed.longPoll = true;
    poller.setSignedIn(true);
    poller.start();
    await clock.advance(0);
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    poller.noteActivity();
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.equal(poller.holdingLongPoll, true);
    poller.setPushActive(true);
    await clock.advance(0);
    assert.equal(poller.holdingLongPoll, false, 'no request is held while push works');
    assert.equal(feed.requests.at(-1)?.waitSeconds, undefined);
    assert.ok((poller.nextPollTime as number) - clock.now() > DEFAULT_SCHEDULE.maxIdleMs);
    // The channel expires: a change it did not report is found by the catch-up poll at once.
    feed.add('missed');
    poller.setPushActive(false);
    await clock.advance(0);
    assert.deepEqual(changedFiles(outcomes), ['missed']);
    assert.equal(poller.pushed, false);
    poller.noteActivity();
    await clock.advance(DEFAULT_SCHEDULE.activeMs);
    assert.equal(poller.holdingLongPoll, true, 'back to the long poll of an active window');
    poller.stop();
  });
});
