#!/usr/bin/env python3
"""Writes a WIDTHxHEIGHT RGB PNG (a diagonal gradient with a dark band) with zlib only:
`make_png.py FILE WIDTH HEIGHT`. The notification suites serve it as a headline's image."""
import struct, sys, zlib

path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = bytearray()
for y in range(h):
    rows.append(0)
    for x in range(w):
        band = h // 3 < y < h // 2
        rows += bytes((40, 40, 60) if band else (int(255 * x / w), 120, int(255 * y / h)))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")
open(path, "wb").write(png)
