#!/usr/bin/env python3
"""procfs.py CORE DIR: writes DIR/maps and DIR/auxv, the /proc files of the process a Linux core
file was made from that Breakpad's core2md reads beside the core: maps from the core's PT_LOAD
segments (one per memory mapping), named by its NT_FILE note (and [vdso] at AT_SYSINFO_EHDR), with
the segments' permissions and file offsets; auxv is the NT_AUXV note's bytes. Little-endian cores."""
import struct, sys
core, out = sys.argv[1], sys.argv[2]
b = open(core, 'rb').read()
assert b[:4] == b'\x7fELF'
is64 = b[4] == 2
E = '<'
if is64:
    phoff, = struct.unpack_from(E+'Q', b, 0x20); phentsize, phnum = struct.unpack_from(E+'HH', b, 0x36)
else:
    phoff, = struct.unpack_from(E+'I', b, 0x1c); phentsize, phnum = struct.unpack_from(E+'HH', b, 0x2a)
loads, notes = [], []
for i in range(phnum):
    o = phoff + i * phentsize
    if is64:
        t, fl, off, va, pa, fsz, msz, al = struct.unpack_from(E+'IIQQQQQQ', b, o)
    else:
        t, off, va, pa, fsz, msz, fl, al = struct.unpack_from(E+'IIIIIIII', b, o)
    if t == 1: loads.append((va, msz, fl))
    if t == 4: notes.append((off, fsz))
files, auxv = [], b''
w = 8 if is64 else 4
fmt = 'Q' if is64 else 'I'
for off, size in notes:
    p = off
    while p < off + size:
        namesz, descsz, typ = struct.unpack_from(E+'III', b, p)
        p += 12
        p += (namesz + 3) & ~3
        desc = b[p:p+descsz]
        p += (descsz + 3) & ~3
        if typ == 6: auxv = desc
        if typ == 0x46494c45:
            count, page = struct.unpack_from(E+fmt+fmt, desc, 0)
            names = desc[2*w + count*3*w:].split(b'\0')
            for k in range(count):
                s, e, pgoff = struct.unpack_from(E+fmt*3, desc, 2*w + k*3*w)
                files.append((s, e, pgoff * page, names[k].decode()))
sysinfo = None
for k in range(0, len(auxv), 2*w):
    t, v = struct.unpack_from(E+fmt+fmt, auxv, k)
    if t == 33: sysinfo = v
with open(out + '/maps', 'w') as m:
    for va, msz, fl in loads:
        perms = ('r' if fl & 4 else '-') + ('w' if fl & 2 else '-') + ('x' if fl & 1 else '-') + 'p'
        name, foff = '', 0
        for s, e, fo, n in files:
            if s == va:
                name, foff = n, fo
        if va == sysinfo: name = '[vdso]'
        fmtw = '%016x' if is64 else '%08x'
        m.write((fmtw + '-' + fmtw + ' %s %08x 00:00 0') % (va, va + msz, perms, foff) + ((' ' * 10 + name) if name else '') + '\n')
open(out + '/auxv', 'wb').write(auxv)
