#!/usr/bin/env python3
"""Turn an iOS database (as mkios.py writes it) into an input of the
fuzz_ios harness (tests/fuzz/fuzz_ios.c): the version byte, then one chunk
[u8 kind][u16 len][bytes] per row, and the symbols file as a chunk.

  ios_seed.py TRACE.db SYMBOLS.txt OUT
"""
import sqlite3
import struct
import sys

K_TRIE, K_THREAD, K_IMAGE, K_SERIES, K_SYMBOLS, K_TABLES = range(6)
TABLES = ["CPUSampleModel", "CPUIntervalSampleModel", "MemSampleModel", "DateSampleModel",
          "DispatchSampleModel", "AsyncSampleModel", "LockSampleModel", "ProfileSampleModel",
          "TimeRangeSampleModel", "CPUBatchSampleModel", "CPUBatchIntervalSampleModel",
          "MemBatchSampleModel", "DateBatchSampleModel", "DispatchBatchSampleModel",
          "AsyncBatchSampleModel", "LockBatchSampleModel", "ProfileBatchSampleModel",
          "TimeRangeBatchSampleModel"]
STEP = 420 * 150  # whole nodes of every batch node size (12, 20, 28 bytes), below 2^16 with the tid


def chunk(kind, data):
    out = b""
    for i in range(0, max(len(data), 1), 65535):
        part = data[i:i + 65535]
        out += struct.pack("<BH", kind, len(part)) + part
    return out


def main():
    db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
    out = bytearray()
    cols = [r[1] for r in db.execute("PRAGMA table_info(BTraceModel)")]
    version = db.execute("SELECT version FROM BTraceModel").fetchone()[0] if "version" in cols else 1
    out.append((version - 1) | (0 if "version" in cols else 0x80))
    for (nodes,) in db.execute("SELECT nodes FROM CallStackTableModel"):
        for i in range(0, len(nodes), 16 * 4000):
            out += chunk(K_TRIE, nodes[i:i + 16 * 4000])
    for tid, name in db.execute("SELECT tid, name FROM ThreadInfoModel"):
        out += chunk(K_THREAD, struct.pack("<I", tid) + name.encode())
    for addr, name in db.execute("SELECT address, name FROM ImageInfoModel"):
        out += chunk(K_IMAGE, struct.pack("<I", addr - (1 << 32)) + name.encode())
    for ts, typ, info in db.execute("SELECT timestamp, type, info FROM TimeSeriesModel"):
        t = typ.encode()
        out += chunk(K_SERIES, struct.pack("<iB", ts - 1700000000000000, len(t)) + t + info.encode())
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for k, table in enumerate(TABLES):
        if table not in names:
            continue
        tcols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % table)][1:]
        for row in db.execute("SELECT %s FROM %s" % (",".join(tcols), table)):
            if tcols == ["tid", "nodes"]:
                for i in range(0, max(len(row[1]), 1), STEP):
                    out += chunk(K_TABLES + k, struct.pack("<I", row[0]) + row[1][i:i + STEP])
            elif tcols == ["sample"]:
                out += chunk(K_TABLES + k, row[0])
            else:
                out += chunk(K_TABLES + k, b"".join(struct.pack("<I", v & 0xFFFFFFFF) for v in row))
    out += chunk(K_SYMBOLS, open(sys.argv[2], "rb").read()[:4000])
    open(sys.argv[3], "wb").write(out)


if __name__ == "__main__":
    main()
