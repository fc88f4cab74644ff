"""Runs the Python conformance suite against a fresh emulator (dist/emulator.js --port 0, demo data) and ends with
mocha's summary lines ("N passing", "N failing"), which scripts/test-all.js counts into npm test's total.
Usage: python3 test/python/run.py [path/to/emulator.js]   (NODE=path/to/node picks the Node that runs it)"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def summary(passed, failed):
    print('\n  %d passing' % passed)
    if failed:
        print('  %d failing' % failed)
    sys.stdout.flush()


def main():
    try:
        import googleapiclient  # noqa: F401  (Debian's python3-googleapi)
    except ImportError as error:
        print('python3-googleapi is missing (%s): run `bash scripts/setup.sh system`' % error)
        summary(0, 1)
        return 1
    bundle = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, 'dist', 'emulator.js')
    emulator = subprocess.Popen([os.environ.get('NODE', 'node'), bundle, '--port', '0', '--seed', 'demo'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = emulator.stdout.readline()
        found = re.search(r'listening on (http://\S+)', first)
        if not found:
            print('the emulator did not start: %s%s' % (first, emulator.stdout.read() if emulator.poll() is not None else ''))
            summary(0, 1)
            return 1
        os.environ['DESK_EMULATOR_URL'] = found.group(1)
        sys.path.insert(0, HERE)
        suite = unittest.defaultTestLoader.loadTestsFromName('conformance_test')
        result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
        failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
        summary(result.testsRun - failed - len(result.skipped), failed)
        return 0 if failed == 0 else 1
    finally:
        emulator.terminate()
        emulator.wait()


if __name__ == '__main__':
    sys.exit(main())
