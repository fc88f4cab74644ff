// Mocha's spec reporter, plus one line for each failed attempt that mocha retries (mocha's own reporters
// print nothing for it, so a test that passed only on its retry would look clean). The line gives the
// attempt's error, which the retry's outcome would otherwise hide.
'use strict';

const Mocha = require('mocha');

const { EVENT_TEST_RETRY } = Mocha.Runner.constants;

class DeskUiReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.on(EVENT_TEST_RETRY, (test, error) => {
      const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' | ') : String(error);
      console.log(`      (attempt ${test.currentRetry() + 1} failed, retrying: ${test.title}: ${message})`);
    });
  }
}

module.exports = DeskUiReporter;
