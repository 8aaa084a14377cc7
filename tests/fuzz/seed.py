#!/usr/bin/env python3
"""Seeds tests/fuzz/corpus: every gates file in the repository, and the bad
specs of tests/check_specs.c (one per error message).  Run from anywhere;
files are named by content hash, so running it again adds only what is new."""
import hashlib, os, re, sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
out = os.path.join(root, 'tests', 'fuzz', 'corpus')

def put(data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)

def c_strings(src):
    """The bytes of the C string literals in src, concatenated."""
    res = bytearray()
    for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', src, re.S):
        i = 0
        while i < len(lit):
            c = lit[i]
            if c != '\\':
                res += c.encode('utf-8')
                i += 1
                continue
            e = lit[i + 1]
            if e == 'x':
                m = re.match(r'[0-9a-fA-F]+', lit[i + 2:])
                res.append(int(m.group(0), 16) & 0xff)
                i += 2 + len(m.group(0))
            elif e in '01234567':
                m = re.match(r'[0-7]{1,3}', lit[i + 1:])
                res.append(int(m.group(0), 8) & 0xff)
                i += 1 + len(m.group(0))
            else:
                res += {'n': b'\n', 't': b'\t', 'r': b'\r', '0': b'\0', '\\': b'\\',
                        '"': b'"', "'": b"'", 'a': b'\a', 'b': b'\b',
                        'f': b'\f', 'v': b'\v'}.get(e, e.encode())
                i += 2
    return bytes(res)

n = 0
for d, _, files in os.walk(root):
    if '/build' in d or '/.git' in d or d.startswith(os.path.join(root, 'tests', 'fuzz')):
        continue
    for f in files:
        if f.endswith('.yaml'):
            with open(os.path.join(d, f), 'rb') as fh:
                put(fh.read())
            n += 1

src = open(os.path.join(root, 'tests', 'check_specs.c'), encoding='utf-8', errors='replace').read()
macros = {m.group(1): m.group(2) for m in re.finditer(r'#define (\w+) ("(?:[^"\\]|\\.)*")', src)}
table = src[src.index('} bad[] = {'):]
table = table[:table.index('\n};')]
for entry in re.findall(r'\n\t\{(.*?), (?:-1|0),\n', table, re.S):
    for k, v in macros.items():
        entry = re.sub(r'\b%s\b' % k, v, entry)
    put(c_strings(entry))
    n += 1
print('%d seeds in %s' % (n, out), file=sys.stderr)
