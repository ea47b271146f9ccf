#!/usr/bin/env python3
"""Rebuilds the .gsym files embedded (as xxd dumps) in ../shared/docs/gsym-vectors/*.txt.

Usage: extract-vectors.py VECTOR_DIR OUT_DIR
Each "=== XXD BEGIN <name>" ... "=== XXD END" block becomes OUT_DIR/<name>.
"""
import os
import re
import subprocess
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for fn in sorted(os.listdir(src)):
        if not fn.endswith('.txt'):
            continue
        lines = open(os.path.join(src, fn), encoding='utf-8').read().split('\n')
        i = 0
        while i < len(lines):
            m = re.match(r'^=== XXD BEGIN (.*)$', lines[i])
            if m:
                name = m.group(1).strip()
                inner = re.match(r'^\(xxd (\S+)\)$', name)
                if inner:
                    name = inner.group(1)
                j = i + 1
                block = []
                while not lines[j].startswith('=== XXD END'):
                    block.append(lines[j])
                    j += 1
                data = subprocess.run(['xxd', '-r'], input=('\n'.join(block) + '\n').encode(),
                                      capture_output=True, check=True).stdout
                with open(os.path.join(out, name), 'wb') as f:
                    f.write(data)
                print(f'{fn}: {name} ({len(data)} bytes)')
                i = j
            i += 1


if __name__ == '__main__':
    main()
