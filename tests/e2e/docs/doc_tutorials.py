#!/usr/bin/env python3
"""doc_tutorials.py RACEGATE BUILD_EXAMPLES SOURCE_DIR DOC.md

Runs the commands a document marks as a tutorial, exactly as written, and
compares what they print with what the document shows, so that the
document cannot drift from racegate.

A marker line before a fenced block says what the block is:

  <!-- doc-test: DIR -->        the block is a terminal session: each line
                                "$ COMMAND" is run, in order, by one bash in
                                DIR (so a `cd` lasts to the block's end), and
                                the lines up to the next "$ " are what it
                                prints, stdout and stderr together
  <!-- doc-test-file: PATH -->  the block is an excerpt of the file PATH as
                                the blocks before it left it: its lines
                                appear in the file, one after the other

DIR and PATH are relative to a fresh folder holding `build/racegate` (the
racegate under test, also first on PATH as `racegate`), `build/examples/`
(a copy of the built examples) and `examples/` (a copy of their sources).
Both sides are masked by normalise.sh (times, tids, addresses) and by
"N decisions" for a schedule's count of decisions (whether main's last
pthread_join is a decision depends on whether the thread it joins has
exited by then), and have runs of spaces squeezed to one (a masked
column is as wide on both);
the fresh folder's own path, in what the commands print, is written
`~/racegate` (the doc's stand-in for where racegate was cloned); everything
else is compared as printed.  A mismatch prints a unified diff
and exits 1.
"""
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

MARK = re.compile(r'^<!-- doc-(test|test-file): (\S+) -->\s*$')
TIMEOUT = 300


def blocks(doc):
    """(kind, where, first line number, lines) of each marked block."""
    lines = open(doc, encoding='utf-8').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines) or not lines[i].startswith('```'):
            sys.exit(f'{doc}:{i}: no fenced block after the doc-test marker')
        start = i + 1
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith('```'):
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            sys.exit(f'{doc}:{start}: fenced block not closed')
        i += 1
        out.append((m.group(1), m.group(2), start + 1, body))
    return out


def normalise(text, here):
    masked = subprocess.run([os.path.join(here, '..', 'normalise.sh')],
                            input=text, capture_output=True, text=True,
                            check=True).stdout
    return [re.sub(r'\b[0-9]+ decisions\b', 'N decisions',
                   re.sub(r' {2,}', ' ', line)).rstrip()
            for line in masked.rstrip('\n').split('\n')]


def run_session(body, cwd, env):
    """The block as a terminal would show it: each command, then its output."""
    cmds = [line[2:] for line in body if line.startswith('$ ')]
    script = ''.join(
        f"printf '%s\\n' {shquote('$ ' + c)}\n{{ {c}\n}} 2>&1\n" for c in cmds)
    p = subprocess.Popen(['bash', '-c', script], cwd=cwd, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        out += f'(timed out after {TIMEOUT} s)\n'
    return out


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def excerpt(body, path):
    """The file's lines where the block's first line is, as many as it has."""
    try:
        lines = open(path, encoding='utf-8').read().split('\n')
    except OSError as e:
        return [f'(cannot read: {e.strerror})']
    for i, line in enumerate(lines):
        if line == body[0]:
            return lines[i:i + len(body)]
    return lines


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.stdout.reconfigure(line_buffering=True)
    rg, built, src, doc = (os.path.abspath(a) for a in sys.argv[1:])
    here = os.path.dirname(os.path.abspath(__file__))
    marked = blocks(doc)
    if not marked:
        sys.exit(f'{doc}: no doc-test marker')
    root = tempfile.mkdtemp(prefix='rg-doc-')
    try:
        os.makedirs(os.path.join(root, 'build'))
        os.symlink(rg, os.path.join(root, 'build', 'racegate'))
        shutil.copytree(built, os.path.join(root, 'build', 'examples'),
                        symlinks=True)
        shutil.copytree(os.path.join(src, 'examples'),
                        os.path.join(root, 'examples'), symlinks=True)
        env = dict(os.environ)
        env['PATH'] = os.path.join(root, 'build') + os.pathsep + env['PATH']
        failed = 0
        for kind, where, line, body in marked:
            name = f'{os.path.basename(doc)}:{line}'
            if kind == 'test':
                got = run_session(body, os.path.join(root, where), env)
                got = got.replace(root, '~/racegate')
            else:
                got = '\n'.join(excerpt(body, os.path.join(root, where)))
            want = normalise('\n'.join(body) + '\n', here)
            have = normalise(got, here)
            if want == have:
                print(f'ok   {name} ({where})')
                continue
            failed += 1
            print(f'FAIL {name} ({where}): the doc shows (-), racegate printed (+)')
            sys.stdout.writelines(
                d + '\n' for d in difflib.unified_diff(
                    want, have, f'{name} (doc)', f'{name} (run)', lineterm=''))
        print(f'{len(marked) - failed} of {len(marked)} blocks as the doc shows')
        return 1 if failed else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
