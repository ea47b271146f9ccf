#!/usr/bin/env python3
# Makes a large Breakpad .sym for benchmarks: the records of SRC repeated COPIES times, addresses of
# copy k shifted by k * 0x10000000 (MODULE/INFO/FILE/INLINE_ORIGIN once, STACK records dropped).
# Usage: python3 bench/bigsym.py SRC.sym COPIES > big.sym
import sys
src, copies = sys.argv[1], int(sys.argv[2])
lines = open(src, 'rb').read().split(b'\n')
out = sys.stdout.buffer
head = [l for l in lines if l.startswith((b'MODULE', b'INFO', b'FILE', b'INLINE_ORIGIN'))]
body = [l for l in lines if l and not l.startswith((b'MODULE', b'INFO', b'FILE', b'INLINE_ORIGIN', b'STACK'))]
out.write(b'\n'.join(head) + b'\n')
def sh(h, k): return b'%x' % (int(h, 16) + k * 0x10000000)
for k in range(copies):
    if k == 0:
        out.write(b'\n'.join(body) + b'\n'); continue
    buf = []
    for l in body:
        p = l.split(b' ')
        t = p[0]
        if t == b'FUNC':
            i = 2 if p[1] == b'm' else 1
            p[i] = sh(p[i], k)
        elif t == b'PUBLIC':
            i = 2 if p[1] == b'm' else 1
            p[i] = sh(p[i], k)
        elif t == b'INLINE':
            for j in range(5, len(p), 2): p[j] = sh(p[j], k)
        else:
            p[0] = sh(p[0], k)
        buf.append(b' '.join(p))
    out.write(b'\n'.join(buf) + b'\n')
