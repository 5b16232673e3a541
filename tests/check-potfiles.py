#!/usr/bin/env python3
"""Checks po/POTFILES.in: sorted, every listed file exists, and every source
file with translatable strings (_(), N_(), C_() or translatable .ui/.in
entries) is listed."""

import os
import re
import sys

top = sys.argv[1]
with open(os.path.join(top, 'po', 'POTFILES.in'), encoding='utf-8') as f:
    listed = [l.strip() for l in f if l.strip() and not l.startswith('#')]

errors = []
if listed != sorted(listed):
    errors.append('po/POTFILES.in is not sorted')
for path in listed:
    if not os.path.exists(os.path.join(top, path)):
        errors.append(f'po/POTFILES.in lists {path}, which does not exist')

marker = re.compile(r'\b(?:_|N_|C_|NC_)\s*\(\s*"')
for folder in ('cli', 'editor', 'libterrain', 'data'):
    for root, _, files in os.walk(os.path.join(top, folder)):
        for name in files:
            path = os.path.relpath(os.path.join(root, name), top)
            if name.endswith(('.c', '.h')):
                with open(os.path.join(top, path), encoding='utf-8') as f:
                    translatable = marker.search(f.read()) is not None
            elif name.endswith(('.ui', '.desktop.in.in', '.metainfo.xml.in.in', '.gschema.xml.in')):
                translatable = True
            else:
                continue
            if translatable and path not in listed:
                errors.append(f'{path} has translatable strings but is not in po/POTFILES.in')

for e in errors:
    print(e)
print('1..1')
print('ok 1 - POTFILES.in' if not errors else 'not ok 1 - POTFILES.in')
sys.exit(1 if errors else 0)
