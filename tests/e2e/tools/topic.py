#!/usr/bin/env python3
"""The tests a topic defines, for ctest -R.

    topic.py BUILD_DIR TOPIC...

Prints one anchored regex of the names of the tests defined under
tests/e2e/TOPIC/ (by TOPIC.cmake, or a function it calls), as ctest's own
record of where each test was added says (ctest --show-only=json-v1):

    ctest --test-dir build -R "$(tests/e2e/tools/topic.py build pads_when)"

Test names carry no topic (errors.cmake defines e2e_help, pads.cmake
e2e_pads_same_hits, ...): the folder is what tells.  Exit status 2 when a
TOPIC has no tests.
"""
import json, re, subprocess, sys

if len(sys.argv) < 3:
    print("usage: topic.py BUILD_DIR TOPIC...", file=sys.stderr)
    sys.exit(2)
build, topics = sys.argv[1], sys.argv[2:]
out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                     capture_output=True, text=True, check=True).stdout
d = json.loads(out)
graph = d["backtraceGraph"]


def files_of(node):
    """Every file on the way from the add_test call up to the top."""
    while node is not None:
        n = graph["nodes"][node]
        yield graph["files"][n["file"]]
        node = n.get("parent")


names, seen = [], set()
for t in d["tests"]:
    for f in files_of(t.get("backtrace")):
        m = re.search(r"/tests/e2e/([^/]+)/[^/]+\.cmake$", f)
        if m and m.group(1) in topics:
            names.append(t["name"])
            seen.add(m.group(1))
            break
for topic in topics:
    if topic not in seen:
        print("topic.py: no test of 'tests/e2e/%s' in '%s'" % (topic, build), file=sys.stderr)
        sys.exit(2)
print("^(%s)$" % "|".join(re.escape(n) for n in names))
