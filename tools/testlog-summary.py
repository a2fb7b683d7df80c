#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Sum meson testlog.json files into one line: N passed, N failed[, N skipped].

Usage: testlog-summary.py [--extra PASSED FAILED SKIPPED] testlog.json...
(--extra adds outcomes from outside meson: failed builds, extra steps.)
Exit status 1 if anything failed (or a log is missing), else 0.
"""
import json
import sys

PASS = {'OK', 'EXPECTEDFAIL'}
SKIP = {'SKIP'}


def count(path, totals, failed_names):
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            res = rec.get('result', 'ERROR')
            if res in PASS:
                totals['passed'] += 1
            elif res in SKIP:
                totals['skipped'] += 1
            else:
                totals['failed'] += 1
                failed_names.append('%s (%s) in %s' % (rec.get('name'), res, path))


def main(argv):
    totals = {'passed': 0, 'failed': 0, 'skipped': 0}
    failed_names = []
    args = argv[1:]
    if len(args) >= 4 and args[0] == '--extra':
        totals['passed'] += int(args[1])
        totals['failed'] += int(args[2])
        totals['skipped'] += int(args[3])
        if int(args[2]):
            failed_names.append('%s build(s) or extra step(s) failed'
                                % args[2])
        args = args[4:]
    for path in args:
        try:
            count(path, totals, failed_names)
        except OSError as e:
            totals['failed'] += 1
            failed_names.append('missing test log %s: %s' % (path, e.strerror))
    for n in failed_names:
        print('FAILED: ' + n)
    line = '%d passed, %d failed' % (totals['passed'], totals['failed'])
    if totals['skipped']:
        line += ', %d skipped' % totals['skipped']
    print(line)
    return 1 if totals['failed'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
