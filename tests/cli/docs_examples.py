#!/usr/bin/env python3
"""Run the examples of README.md and docs/*.md and compare what they print.

The format (docs/README.md describes it for writers):

- In a fenced code block, a line that starts with "$ " is a command. It
  runs under bash in a scratch directory in which ./flashbench is the
  binary under test and scripts/ and tests/ are the tree's, with what the
  command before it in the block left there (files, $?).
- The lines after it, up to the next "$ " or "# " line or the end of the
  block, are what it prints: standard output and standard error as they
  come, the way a terminal shows them. A line "..." (or "[...]", or
  "[... any words ...]") stands for any number of lines, none included.
- A "# ./flashbench ..." line (also "# echo", "# sudo") is a command run
  as root on a real device: shown, not run, and its lines not compared.
- <!-- example setup: COMMANDS --> on the line before a block runs
  COMMANDS in the scratch directory first (e.g. truncate -s 16M x.img).
- <!-- example not run: REASON --> on the line before a block skips it
  (output of a real device or of this machine's timing); the reason is
  required and the count of such blocks is printed.

Usage: docs_examples.py FLASHBENCH ROOT FILE...  Prints one line per
example, "ok FILE:LINE: COMMAND" or "FAIL FILE:LINE: COMMAND" with a diff,
"notrun FILE:LINE: REASON" per skipped block, and exits 1 on a failure.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

WILD = re.compile(r'^(\.\.\.|\[\.\.\.\]|\[\.\.\. .*\.\.\.\]|\[\.\.\..*\])$')
SETUP = re.compile(r'^<!-- example setup: (.*) -->$')
ROOTCMD = re.compile(r'^# (\./|echo |sudo |flashbench )')
NOTRUN = re.compile(r'^<!-- example not run: (.+) -->$')


def blocks(path):
    """(line of the fence, setup, not-run reason, [(line, command, [expected])])."""
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if not lines[i].startswith('```'):
            i += 1
            continue
        prev = lines[i - 1] if i > 0 else ''
        setup = SETUP.match(prev)
        notrun = NOTRUN.match(prev)
        start = i
        i += 1
        cmds = []
        while i < len(lines) and not lines[i].startswith('```'):
            line = lines[i]
            if line.startswith('$ '):
                cmds.append((i + 1, line[2:], []))
            elif ROOTCMD.match(line):
                cmds.append((i + 1, None, []))	# a root command: its lines are not compared
            elif cmds:
                cmds[-1][2].append(line)
            i += 1
        i += 1
        cmds = [c for c in cmds if c[1] is not None]
        if cmds:
            yield (start + 1, setup.group(1) if setup else None,
                   notrun.group(1) if notrun else None, cmds)


def matches(want, got):
    """want (with wildcard lines) against got, line by line."""
    pat = ''.join(r'(?:[^\n]*\n)*?' if WILD.match(w) else re.escape(w) + r'\n' for w in want)
    return re.fullmatch(pat, ''.join(g + '\n' for g in got)) is not None


def run_block(fb, root, setup, cmds, report):
    scratch = tempfile.mkdtemp(prefix='fbdocs.')
    try:
        os.symlink(fb, os.path.join(scratch, 'flashbench'))
        for d in ('scripts', 'tests'):
            os.symlink(os.path.join(root, d), os.path.join(scratch, d))
        env = dict(os.environ, LC_ALL='C.UTF-8')
        if setup:
            subprocess.run(['bash', '-c', setup], cwd=scratch, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        status = 0
        for line, cmd, want in cmds:
            try:
                p = subprocess.run(['bash', '-c', '(exit %d); %s' % (status, cmd)], cwd=scratch,
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=300)
                out, status = p.stdout.decode('utf-8', 'replace'), p.returncode
            except subprocess.TimeoutExpired:
                out, status = '(timed out after 300s)\n', 124
            got = out.split('\n')
            if got and got[-1] == '':
                got.pop()
            report(line, cmd, want, got, matches(want, got))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    fb, root, files = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    failed = 0

    for path in files:
        rel = os.path.relpath(path, root)
        for fence, setup, notrun, cmds in blocks(path):
            if notrun:
                print('notrun %s:%d: %s' % (rel, fence, notrun))
                continue

            def report(line, cmd, want, got, good):
                nonlocal failed
                if good:
                    print('ok %s:%d: %s' % (rel, line, cmd))
                    return
                failed += 1
                print('FAIL %s:%d: %s' % (rel, line, cmd))
                for d in list(difflib.unified_diff(want, got, 'shown', 'printed', lineterm=''))[:12]:
                    print('    ' + d)
            run_block(fb, root, setup, cmds, report)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
