#!/usr/bin/python3
"""usage: png-colors.py FILE [#rrggbb...]
Decode an 8-bit RGB/RGBA PNG (no library: zlib and the PNG filters) and
print "WIDTHxHEIGHT DISTINCT" then, for each colour asked, "#rrggbb N" with
the number of pixels of exactly that colour."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        sys.exit("%s: only 8-bit RGB/RGBA (depth %d, colour type %d)" % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.splitlines()[0], file=sys.stderr)
        sys.exit(2)
    w, h, bpp, rows = decode(sys.argv[1])
    counts = {}
    for r in rows:
        for x in range(0, len(r), bpp):
            k = r[x:x + 3]
            counts[k] = counts.get(k, 0) + 1
    print("%dx%d %d" % (w, h, len(counts)))
    for c in sys.argv[2:]:
        k = bytes.fromhex(c.lstrip("#"))
        print("%s %d" % (c, counts.get(k, 0)))


if __name__ == "__main__":
    main()
