#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Extract the vmlinux BTF blob from a kernel image (raw arm64 Image, EFI zboot, gzip/xz/zstd/...
# compressed image, ELF vmlinux or a bare BTF file) so vmlinux.h can be made for a kernel that
# does not run here. Prints the kernel release found in the image's banner on stdout.
#
#   btf_extract.py IMAGE OUT_BTF      write the BTF to OUT_BTF, print the release (or nothing)
#   btf_extract.py --self-test        check the extractor on synthetic inputs

import bz2
import gzip
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

MAX_INPUT = 512 << 20  # a vmlinuz is tens of MiB
MAX_IMAGE = 1 << 30  # a decompressed Image is well under this
MAX_DEPTH = 3  # zboot -> compressed payload -> Image

BTF_MAGIC = b"\x9f\xeb\x01\x00"  # magic 0xeb9f (LE), version 1, flags 0
BTF_HDR = struct.Struct("<HBBIIIII")
BTF_HDR_LEN = 24
BTF_TYPE = struct.Struct("<III")  # name_off, info, size/type

# Bytes that follow each btf_type record, per kind: (fixed, per vlen entry).
KIND_TAIL = {
    1: (4, 0),  # INT
    2: (0, 0),  # PTR
    3: (12, 0),  # ARRAY
    4: (0, 12),  # STRUCT
    5: (0, 12),  # UNION
    6: (0, 8),  # ENUM
    7: (0, 0),  # FWD
    8: (0, 0),  # TYPEDEF
    9: (0, 0),  # VOLATILE
    10: (0, 0),  # CONST
    11: (0, 0),  # RESTRICT
    12: (0, 0),  # FUNC
    13: (0, 8),  # FUNC_PROTO
    14: (4, 0),  # VAR
    15: (0, 12),  # DATASEC
    16: (0, 0),  # FLOAT
    17: (4, 0),  # DECL_TAG
    18: (0, 0),  # TYPE_TAG
    19: (0, 12),  # ENUM64
}


class ExtractError(Exception):
    pass


def bounded(decomp, data, what):
    """Run a decompressor object (zlib/lzma/bz2 API) without letting output exceed MAX_IMAGE."""
    out = []
    total = 0
    buf = data
    while True:
        try:
            chunk = decomp.decompress(buf, 64 << 20)
        except (zlib.error, lzma.LZMAError, OSError, EOFError) as e:
            raise ExtractError(f"failed to decompress {what}: {e}")
        # zlib hands back what it did not consume; lzma and bz2 keep it inside.
        buf = getattr(decomp, "unconsumed_tail", b"")
        total += len(chunk)
        if total > MAX_IMAGE:
            raise ExtractError(f"failed to decompress {what}: output exceeds {MAX_IMAGE} bytes")
        out.append(chunk)
        if decomp.eof or (not chunk and not buf and getattr(decomp, "needs_input", True)):
            break
    if not total:
        raise ExtractError(f"failed to decompress {what}: no output")
    return b"".join(out)


def run_tool(argv, data, what):
    """Decompress with an external tool for formats the standard library lacks."""
    if not shutil.which(argv[0]):
        raise ExtractError(f"failed to decompress {what}: '{argv[0]}' is not installed")
    out = []
    total = 0
    with tempfile.TemporaryFile() as src, tempfile.TemporaryFile() as err:
        src.write(data)
        src.seek(0)
        with subprocess.Popen(argv, stdin=src, stdout=subprocess.PIPE, stderr=err) as proc:
            while True:
                chunk = proc.stdout.read(1 << 20)
                if not chunk:
                    break
                total += len(chunk)
                if total > MAX_IMAGE:
                    proc.kill()
                    raise ExtractError(f"failed to decompress {what}: output exceeds "
                                       f"{MAX_IMAGE} bytes")
                out.append(chunk)
        err.seek(0)
        msg = err.read(4096).decode(errors="replace").strip()
    # Trailing bytes after the stream (zboot padding) make the tools complain yet the output
    # is whole; the BTF validation below decides whether it is usable.
    if not total:
        raise ExtractError(f"failed to decompress {what}: {argv[0]}: {msg or 'no output'}")
    return b"".join(out)


def decompress(kind, data, what):
    if kind == "gzip":
        return bounded(zlib.decompressobj(wbits=31), data, what)
    if kind in ("xz", "lzma"):
        return bounded(lzma.LZMADecompressor(), data, what)
    if kind == "bzip2":
        return bounded(bz2.BZ2Decompressor(), data, what)
    if kind == "zstd":
        return run_tool(["zstd", "-dcq"], data, what)
    if kind == "lz4":
        return run_tool(["lz4", "-dcq"], data, what)
    raise ExtractError(f"failed to decompress {what}: unsupported compression '{kind}'")


def sniff_compression(data):
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if data[:3] == b"BZh":
        return "bzip2"
    if data[:4] == b"\x28\xb5\x2f\xfd":
        return "zstd"
    if data[:4] == b"\x04\x22\x4d\x18" or data[:4] == b"\x02\x21\x4c\x18":
        return "lz4"
    return None


def zboot_payload(data):
    """Return (compression, payload) of an EFI zboot image, or None if it is not one."""
    if len(data) < 64 or data[:2] != b"MZ" or data[4:8] != b"zimg":
        return None
    off, size = struct.unpack_from("<II", data, 8)
    comp = data[24:56].split(b"\0", 1)[0].decode("ascii", errors="replace")
    if off >= len(data) or size == 0:
        raise ExtractError(f"failed to parse zboot header: payload {off}+{size} outside the "
                           f"{len(data)}-byte file")
    # The recorded size leaves out the 4-byte length trailer some formats carry.
    end = min(len(data), off + size + 4)
    return comp, data[off:end]


def unwrap(data, what):
    """Peel zboot and compression layers until something that is not wrapped remains."""
    for _ in range(MAX_DEPTH):
        zb = zboot_payload(data)
        if zb:
            comp, data = zb
            what = f"{comp} payload of zboot {what}"
            data = decompress(comp, data, what)
            continue
        comp = sniff_compression(data)
        if comp:
            what = f"{comp} {what}"
            data = decompress(comp, data, what)
            continue
        return data
    raise ExtractError(f"failed to unwrap {what}: more than {MAX_DEPTH} layers")


def check_types(types, strs_len):
    """Walk the type section record by record; a real blob parses exactly to its end."""
    pos = 0
    count = 0
    while pos < len(types):
        if pos + BTF_TYPE.size > len(types):
            return f"type {count + 1} truncated"
        name_off, info, _ = BTF_TYPE.unpack_from(types, pos)
        kind = (info >> 24) & 0x1f
        vlen = info & 0xffff
        if kind not in KIND_TAIL:
            return f"type {count + 1} has unknown kind {kind}"
        if name_off >= strs_len:
            return f"type {count + 1} name offset {name_off} outside strings"
        fixed, per = KIND_TAIL[kind]
        pos += BTF_TYPE.size + fixed + per * vlen
        count += 1
    if pos != len(types):
        return "type section does not end on a record boundary"
    return count


def parse_btf_at(data, i):
    """Validate the BTF header at offset i; return (length, type count) or an error string."""
    if i + BTF_HDR_LEN > len(data):
        return "header truncated"
    _, _, _, hdr_len, type_off, type_len, str_off, str_len = BTF_HDR.unpack_from(data, i)
    if hdr_len != BTF_HDR_LEN:
        return f"hdr_len {hdr_len} is not {BTF_HDR_LEN}"
    if type_len == 0 or str_len == 0:
        return "empty type or string section"
    if type_off % 4 or type_off + type_len > str_off:
        return "type section misplaced"
    body = max(type_off + type_len, str_off + str_len)
    if i + hdr_len + body > len(data):
        return f"sections run {i + hdr_len + body - len(data)} bytes past the end"
    base = i + hdr_len
    strs = data[base + str_off:base + str_off + str_len]
    if strs[:1] != b"\0" or strs[-1:] != b"\0":
        return "string section not NUL-delimited"
    res = check_types(data[base + type_off:base + type_off + type_len], str_len)
    if isinstance(res, str):
        return res
    return hdr_len + body, res


def find_btf(data):
    """Return the largest valid BTF blob in data; raise with the rejects if there is none."""
    best = None
    rejects = []
    i = data.find(BTF_MAGIC)
    while i >= 0:
        res = parse_btf_at(data, i)
        if isinstance(res, str):
            rejects.append(f"offset {i:#x}: {res}")
        elif best is None or res[0] > best[1]:
            best = (i, res[0], res[1])
        i = data.find(BTF_MAGIC, i + 1)
    if best is None:
        detail = "; ".join(rejects[:5]) if rejects else "no BTF magic found"
        raise ExtractError(f"failed to find BTF: {detail} (is CONFIG_DEBUG_INFO_BTF set?)")
    off, length, ntypes = best
    print(f"btf_extract: BTF at {off:#x}, {length} bytes, {ntypes} types", file=sys.stderr)
    return data[off:off + length]


def kernel_release(data):
    m = re.search(rb"Linux version (\d+\.\d+[\w.+~-]*) \(", data)
    return m.group(1).decode() if m else ""


def extract(path, out):
    # Read one byte past the limit: sysfs and pipes do not report a size up front.
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT + 1)
    except OSError as e:
        raise ExtractError(f"failed to read {path}: {e.strerror}")
    if len(data) > MAX_INPUT:
        raise ExtractError(f"failed to read {path}: larger than {MAX_INPUT} bytes")
    image = unwrap(data, os.path.basename(path))
    btf = find_btf(image)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(btf)
    os.replace(tmp, out)
    return kernel_release(image)


def synth_btf():
    """A minimal valid BTF: int, struct s { int a; }, pointer to s."""
    strs = b"\0int\0s\0a\0"
    types = BTF_TYPE.pack(1, 1 << 24, 4) + struct.pack("<I", 32)
    types += BTF_TYPE.pack(5, (4 << 24) | 1, 4) + struct.pack("<III", 7, 1, 0)
    types += BTF_TYPE.pack(0, 2 << 24, 2)
    hdr = BTF_HDR.pack(0xeb9f, 1, 0, BTF_HDR_LEN, 0, len(types), len(types), len(strs))
    return hdr + types + strs


def zstd_or_none(data):
    """zstd-compress with the command-line tool, or None where it is missing."""
    if not shutil.which("zstd"):
        return None
    return subprocess.run(["zstd", "-qc"], input=data, stdout=subprocess.PIPE,
                          check=True).stdout


def self_test():
    btf = synth_btf()
    banner = b"Linux version 6.1.0-57-arm64 (builder) #1 SMP\0"
    # Decoys: a bare magic, and a header whose sections run past the end.
    decoy = BTF_MAGIC + b"\0" * 8 + BTF_HDR.pack(0xeb9f, 1, 0, 24, 0, 1 << 20, 1 << 20, 8)
    image = b"ARMd" + os.urandom(4096) + decoy + banner + btf + os.urandom(333) + decoy[:30]
    zb = bytearray(b"MZ\0\0zimg" + b"\0" * 56)
    payload = gzip.compress(image)
    struct.pack_into("<II", zb, 8, len(zb), len(payload) - 4)
    zb[24:28] = b"gzip"
    cases = {
        "raw": (image, True),
        "gzip": (gzip.compress(image), True),
        "xz": (lzma.compress(image), True),
        "zstd": (zstd_or_none(image), True),
        "zboot": (bytes(zb) + payload + b"\0" * 512, True),
        "bare": (btf, True),
        "truncated": (image[:image.index(btf) + len(btf) - 3], False),
        "corrupt-kind": (btf[:28] + struct.pack("<I", 30 << 24) + btf[32:], False),
        "no-btf": (os.urandom(8192).replace(b"\x9f\xeb", b"\0\0"), False),
        "bad-zboot": (b"MZ\0\0zimg" + struct.pack("<II", 1 << 30, 10) + b"\0" * 64, False),
        "bad-gzip": (b"\x1f\x8b\x08\0" + os.urandom(64), False),
    }
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory() as d:
        for name, (blob, ok) in cases.items():
            if blob is None:
                print(f"skip {name}: no compressor", file=sys.stderr)
                skipped += 1
                continue
            src = os.path.join(d, name)
            out = os.path.join(d, name + ".btf")
            with open(src, "wb") as f:
                f.write(blob)
            try:
                rel = extract(src, out)
                with open(out, "rb") as f:
                    got = f.read()
                want_rel = "" if name == "bare" else "6.1.0-57-arm64"
                good = ok and got == btf and rel == want_rel
                msg = f"extracted, release '{rel}'"
            except ExtractError as e:
                good = not ok
                msg = str(e)
            print(f"{'ok  ' if good else 'FAIL'} {name}: {msg}", file=sys.stderr)
            passed += good
            failed += not good
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 3:
        print("usage: btf_extract.py IMAGE OUT_BTF | --self-test", file=sys.stderr)
        return 2
    try:
        print(extract(argv[1], argv[2]))
    except ExtractError as e:
        print(f"btf_extract: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
